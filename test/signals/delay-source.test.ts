import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectThrottle, toUpstreamRateLimitedError } from "../../src/index.js";
import { DELAY_SOURCES, isDelaySource } from "../../src/signals/delay-source.js";

const TOKEN = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const NOW = new Date("2026-12-01T12:00:00Z");

/** A header-name piece an upstream may pick: anything a field name may hold, the token too. */
const piece = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,12}$/),
  fc.stringMatching(/^[a-z0-9_-]{1,40}$/),
  fc.constant(TOKEN.toLowerCase()),
);

/** The field families whose names the upstream chooses, and plain garbage names. */
const familyName = fc.oneof(
  piece.map((p) => `zendesk-ratelimit-${p}`),
  piece.map((p) => `x-${p}-ratelimit-reset`),
  piece.map((p) => `x-ratelimit-${p}-reset`),
  piece.map((p) => `x-${p}-ratelimit-interval-milliseconds`),
  fc.string({ minLength: 1, maxLength: 60 }),
);

const value = fc.oneof(
  fc.constantFrom(
    "remaining=0; resets=30",
    "total=100; remaining=0; resets=41",
    "0",
    "30",
    "10000",
    "2026-12-01T12:00:30Z",
  ),
  fc.nat().map(String),
  fc.string({ maxLength: 40 }),
);

/** A header set in which every family field comes with its remaining field at 0. */
const headers = fc.array(fc.tuple(familyName, value), { maxLength: 8 }).map((entries) => {
  const record: Record<string, string> = {};
  for (const [name, text] of entries) {
    record[name] = text;
    record[name.replace(/(reset|interval-milliseconds)$/, "remaining")] = "0";
  }
  return record;
});

describe("delay sources", () => {
  it("keeps a Zendesk endpoint name chosen by the upstream out of delaySource", () => {
    const signal = detectThrottle({
      status: 429,
      headers: { [`zendesk-ratelimit-${TOKEN.toLowerCase()}`]: "remaining=0; resets=30" },
    });
    expect(signal).toMatchObject({ retryAfterSeconds: 30, delaySource: "zendesk-endpoint-quota" });
    expect(JSON.stringify(signal?.delaySource)).not.toContain(TOKEN.toLowerCase());
  });

  it("names the x-…-ratelimit-…-reset and interval families by the family, not the field", () => {
    const reset = detectThrottle(
      {
        status: 429,
        headers: {
          "x-4ec39hqlyjwd-ratelimit-reset": "5",
          "x-4ec39hqlyjwd-ratelimit-remaining": "0",
        },
      },
      { now: NOW },
    );
    expect(reset).toMatchObject({ retryAfterSeconds: 5, delaySource: "ratelimit-family-reset" });
    const window = detectThrottle({
      status: 429,
      headers: {
        "x-hubspot-ratelimit-interval-milliseconds": "10000",
        "x-hubspot-ratelimit-remaining": "0",
      },
    });
    expect(window).toMatchObject({ retryAfterSeconds: 10, delaySource: "ratelimit-family-window" });
  });

  it("reports a delaySource from the fixed set for arbitrary header names and values (property)", () => {
    fc.assert(
      fc.property(headers, fc.constantFrom(429, 403, 400, 200), (fields, status) => {
        const signal = detectThrottle({ status, headers: fields }, { now: NOW });
        if (signal !== undefined) expect(DELAY_SOURCES).toContain(signal.delaySource);
        const error = toUpstreamRateLimitedError({ status, headers: fields }, { now: NOW });
        if (error !== undefined) expect(isDelaySource(error.delaySource)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the header names out of delaySource through a Headers and a Map too (property)", () => {
    fc.assert(
      fc.property(headers, (fields) => {
        const entries = Object.entries(fields);
        for (const input of [new Map(entries), safeHeaders(entries)]) {
          const signal = detectThrottle({ status: 429, headers: input }, { now: NOW });
          expect(DELAY_SOURCES).toContain(signal?.delaySource);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("lists each source once", () => {
    expect(new Set(DELAY_SOURCES).size).toBe(DELAY_SOURCES.length);
    expect(isDelaySource("zendesk-ratelimit-tickets")).toBe(false);
  });
});

/** A fetch Headers of the entries it accepts (it refuses names that are no tokens). */
function safeHeaders(entries: [string, string][]): Headers {
  const out = new Headers();
  for (const [name, text] of entries) {
    try {
      out.append(name, text);
    } catch {
      // Not a field name fetch would let through: not a header a response can carry.
    }
  }
  return out;
}
