import { describe, expect, it } from "vitest";
import { detectThrottle } from "../../src/index.js";
import { readHeaders } from "../../src/signals/headers.js";
import {
  familyReset,
  familyWindow,
  pairedReset,
  saysExhausted,
} from "../../src/signals/quota-families.js";

const now = Date.parse("2026-11-29T12:00:00Z");
const epoch = (seconds: number) => String(now / 1000 + seconds);

describe("saysExhausted", () => {
  it.each([
    ["0", true],
    ["0.0", true],
    ["9000, 0", true],
    ["0.5", false],
    ["12", false],
    ["-0", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(saysExhausted(value)).toBe(expected);
  });
});

describe("pairedReset: one value per policy", () => {
  const reset = (remaining: string | undefined, value: string) =>
    pairedReset(
      readHeaders({
        "x-ratelimit-reset": value,
        ...(remaining === undefined ? {} : { "x-ratelimit-remaining": remaining }),
      }),
      "x-ratelimit-reset",
      "x-ratelimit-remaining",
      now,
    );

  it("takes the exhausted policy's reset (Brave: per second spent, month left)", () => {
    expect(reset("0, 9000", "1, 1419704")).toStrictEqual({ deltaMs: 1000 });
  });

  it("takes the monthly reset when the month is what is spent", () => {
    expect(reset("1, 0", "1, 1419704")).toStrictEqual({ deltaMs: 1_419_704_000 });
  });

  it("without a remaining list, or with none spent, takes the latest: the safe bound", () => {
    expect(reset(undefined, "1, 30")).toStrictEqual({ deltaMs: 30_000 });
    expect(reset("3, 9000", "1, 30")).toStrictEqual({ deltaMs: 30_000 });
  });

  it("compares epochs and deltas as waits", () => {
    expect(reset("0, 0", `${epoch(90)}, 30`)).toStrictEqual({ epochMs: now + 90_000 });
  });

  it("ignores a line of more than 16 policies and values that are no resets", () => {
    expect(reset("0", Array.from({ length: 17 }, () => "5").join(", "))).toBeUndefined();
    expect(reset("0, 0", "soon, 7")).toStrictEqual({ deltaMs: 7000 });
  });
});

describe("familyReset and familyWindow", () => {
  it("prefers the exhausted member of the family, else the latest reset", () => {
    const headers = readHeaders({
      "x-ratelimit-requests-remaining": "3",
      "x-ratelimit-requests-reset": String(now + 120_000),
      "x-ratelimit-complexity-remaining": "0",
      "x-ratelimit-complexity-reset": String(now + 30_000),
    });
    expect(familyReset(headers, now)).toStrictEqual({ epochMs: now + 30_000 });
    const none = readHeaders({
      "x-sentry-rate-limit-remaining": "4",
      "x-sentry-rate-limit-reset": epoch(5),
      "x-foo-ratelimit-reset": epoch(50),
    });
    expect(familyReset(none, now)).toStrictEqual({ epochMs: now + 50_000 });
  });

  it("reads no name outside the family pattern, nor one longer than 64", () => {
    const headers = readHeaders({
      "ratelimit-reset-x": "5",
      [`x-${"a".repeat(70)}-ratelimit-reset`]: "5",
      "x-rate-limit-reset-after": "5",
    });
    expect(familyReset(headers, now)).toBeUndefined();
  });

  it("takes a window only when its quota is spent", () => {
    const spent = { "x-hubspot-ratelimit-interval-milliseconds": "10000" };
    expect(familyWindow(readHeaders({ ...spent, "x-hubspot-ratelimit-remaining": "0" }))).toBe(
      10_000,
    );
    expect(
      familyWindow(readHeaders({ ...spent, "x-hubspot-ratelimit-remaining": "7" })),
    ).toBeUndefined();
    expect(familyWindow(readHeaders(spent))).toBeUndefined();
  });
});

describe("detectThrottle with the shared rules", () => {
  it("counts a 403 with remaining 0.0 and a reset as a throttle (it did not before)", () => {
    const signal = detectThrottle(
      { status: 403, headers: { "x-ratelimit-remaining": "0.0", "x-ratelimit-reset": "60" } },
      { now: new Date(now) },
    );
    expect(signal).toMatchObject({ delaySource: "x-ratelimit-reset", retryAfterSeconds: 60 });
  });

  it("reads the families from a Headers object too", () => {
    const headers = new Headers({
      "X-Sentry-Rate-Limit-Remaining": "0",
      "X-Sentry-Rate-Limit-Reset": epoch(5),
    });
    const signal = detectThrottle({ status: 429, headers }, { now: new Date(now) });
    expect(signal).toMatchObject({
      delaySource: "ratelimit-family-reset",
      retryAfterSeconds: 5,
    });
  });
});

describe("ISO 8601 resets to the minute (Atlassian: Jira, Confluence)", () => {
  const signalOf = (reset: string) =>
    detectThrottle(
      { status: 429, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset } },
      { now: new Date(now) },
    );

  it("reads X-RateLimit-Reset written without seconds, in UTC or with an offset", () => {
    expect(signalOf("2026-11-29T12:05Z")).toMatchObject({
      delaySource: "x-ratelimit-reset",
      retryAfterSeconds: 300,
    });
    expect(signalOf("2026-11-29T12:05Z")?.resetsAt?.toISOString()).toBe("2026-11-29T12:05:00.000Z");
    expect(signalOf("2026-11-29T13:10+01:00")?.retryAfterSeconds).toBe(600);
    expect(signalOf("2026-11-29t12:01z")?.retryAfterSeconds).toBe(60);
  });

  it.each([
    "2026-11-29T12:5Z",
    "2026-11-29T24:00Z",
    "2026-11-29T12:60Z",
    "2026-02-30T12:05Z",
    "2026-13-01T12:05Z",
    "2026-11-29T12:05",
    "2026-11-29 12:05Z",
    "2026-11-29T12:05+1:00",
    "2026-11-29T12:05+24:00",
    "+2026-11-29T12:05Z",
  ])("ignores %j", (reset) => {
    expect(signalOf(reset)?.delaySource).toBe("none");
  });
});
