import { afterEach, describe, expect, it } from "vitest";
import { detectThrottle, type ThrottleSignal } from "../../src/index.js";
import {
  type FakeUpstream,
  startFakeUpstream,
  type ThrottleStyle,
} from "../../src/testing/node.js";

let upstream: FakeUpstream | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const FROZEN = Date.parse("2026-11-29T12:00:00Z");

async function signalOf(
  url: string,
  headers?: Record<string, string>,
): Promise<ThrottleSignal | undefined> {
  const response = await fetch(url, headers ? { headers } : {});
  const text = await response.text();
  return detectThrottle(
    { status: response.status, headers: response.headers, body: text },
    { now: new Date(FROZEN) },
  );
}

describe("startFakeUpstream", () => {
  it("answers within the limit, then throttles for the rest of the window, then answers again", async () => {
    let now = FROZEN;
    upstream = await startFakeUpstream({
      limits: { "/search": { limit: 2, windowMs: 60_000 } },
      now: () => now,
    });
    expect((await fetch(`${upstream.url}/search?q=a`)).status).toBe(200);
    expect(await (await fetch(`${upstream.url}/search?q=a`)).json()).toStrictEqual({
      query: "a",
      hits: ["a — first result", "a — second result"],
    });
    now += 15_000;
    expect(await signalOf(`${upstream.url}/search`)).toMatchObject({
      retryAfterSeconds: 45,
      delaySource: "retry-after",
    });
    now += 45_000;
    expect((await fetch(`${upstream.url}/search`)).status).toBe(200);
    expect(upstream.requests.get("/search")).toBe(4);
  });

  it.each<[ThrottleStyle, Partial<ThrottleSignal>]>([
    ["retry-after-seconds", { status: 429, delaySource: "retry-after", retryAfterSeconds: 60 }],
    [
      "retry-after-date",
      {
        status: 429,
        delaySource: "retry-after",
        retryAfterSeconds: 60,
        resetsAt: new Date(FROZEN + 60_000),
      },
    ],
    ["ietf", { status: 429, delaySource: "ratelimit", retryAfterSeconds: 60, limitName: "search" }],
    [
      "github",
      { status: 403, delaySource: "x-ratelimit-reset", retryAfterSeconds: 60, limitName: "search" },
    ],
    ["sep3304", { status: 429, delaySource: "json-rpc-retry-after-ms", retryAfterSeconds: 60 }],
  ])("throttles in the %s style, which detectThrottle reads", async (style, expected) => {
    upstream = await startFakeUpstream({
      limits: { "/search": { limit: 0, windowMs: 60_000, style } },
      now: () => FROZEN,
    });
    expect(await signalOf(`${upstream.url}/search`)).toMatchObject(expected);
  });

  it("keeps a window per caller when asked", async () => {
    upstream = await startFakeUpstream({
      limits: { "/search": { limit: 1, windowMs: 60_000, perCaller: true } },
    });
    expect(
      (await fetch(`${upstream.url}/search`, { headers: { authorization: "Bearer a" } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${upstream.url}/search`, { headers: { authorization: "Bearer a" } })).status,
    ).toBe(429);
    expect(
      (await fetch(`${upstream.url}/search`, { headers: { authorization: "Bearer b" } })).status,
    ).toBe(200);
  });

  it("sees a caller abort a request to a path that never answers", async () => {
    upstream = await startFakeUpstream({ hang: ["/slow"] });
    const controller = new AbortController();
    const pending = fetch(`${upstream.url}/slow`, { signal: controller.signal }).catch(
      () => "aborted",
    );
    while (upstream.requests.get("/slow") !== 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toBe("aborted");
    while (upstream.closedEarly.get("/slow") !== 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(upstream.closedEarly.get("/slow")).toBe(1);
  });

  it("rejects a bad limit, naming it", async () => {
    await expect(
      startFakeUpstream({ limits: { "/x": { limit: -1, windowMs: 10 } } }),
    ).rejects.toThrow(/`limits\["\/x"\]`/);
  });
});
