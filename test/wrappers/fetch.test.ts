import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { throttledFetch, UpstreamRateLimitedError } from "../../src/index.js";
import { rejection } from "../helpers/throttle.js";

const API = "https://api.example.com";

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

describe("throttledFetch with nock", () => {
  it("throws UpstreamRateLimitedError for a 429 with Retry-After and a JSON message", async () => {
    nock(API)
      .get("/search")
      .reply(
        429,
        { message: "This endpoint has been requested too many times. Try again later." },
        { "Retry-After": "60" },
      );
    const error = await rejection(throttledFetch({ limit: "search_rate_limit" })(`${API}/search`));
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(error).toMatchObject({
      limit: "search_rate_limit",
      limitSource: "option",
      status: 429,
      retryAfterMs: 60_000,
      retryAfterSeconds: 60,
      delaySource: "retry-after",
      upstreamMessage: "This endpoint has been requested too many times. Try again later.",
    });
  });

  it("throws for GitHub's 403 with an exhausted quota, naming the limit by x-ratelimit-resource", async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    nock(API)
      .get("/repos/o/r")
      .reply(
        403,
        { message: "API rate limit exceeded for user ID 1." },
        {
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
          "x-ratelimit-resource": "core",
        },
      );
    const error = await rejection(throttledFetch()(`${API}/repos/o/r`));
    expect(error).toMatchObject({
      status: 403,
      limit: "core",
      limitSource: "upstream",
      delaySource: "x-ratelimit-reset",
    });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(119);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(error.resetsAt?.getTime()).toBe(reset * 1000);
  });

  it("throws for GitHub's secondary limit told only by the body, and names the host", async () => {
    nock(API).get("/search/code").query({ q: "x" }).reply(403, {
      message: "You have exceeded a secondary rate limit. Please wait a few minutes.",
    });
    const error = await rejection(throttledFetch()(`${API}/search/code?q=x`));
    expect(error).toMatchObject({
      status: 403,
      limit: "api.example.com",
      limitSource: "host",
      delaySource: "none",
    });
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it("falls back to the configured default delay and says so", async () => {
    nock(API).get("/x").reply(429, "slow down", { "content-type": "text/plain" });
    const error = await rejection(throttledFetch({ defaultRetryAfterSeconds: 15 })(`${API}/x`));
    expect(error).toMatchObject({
      retryAfterSeconds: 15,
      delaySource: "default",
      upstreamMessage: "slow down",
    });
  });

  it("returns a success untouched: the same unread Response", async () => {
    nock(API)
      .get("/ok")
      .reply(200, { hits: [1, 2] }, { "retry-after": "5" });
    let inner: Response | undefined;
    const fetchImpl: typeof fetch = async (input, init) => {
      inner = await fetch(input, init);
      return inner;
    };
    const response = await throttledFetch({ fetch: fetchImpl })(`${API}/ok`);
    expect(response).toBe(inner);
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toStrictEqual({ hits: [1, 2] });
  });

  it("returns a 404 untouched, its JSON body still readable", async () => {
    nock(API).get("/missing").reply(404, { message: "Not Found" });
    const response = await throttledFetch()(`${API}/missing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toStrictEqual({ message: "Not Found" });
  });

  it("returns a permission 403 untouched after reading a copy of its body", async () => {
    nock(API).get("/private").reply(403, { message: "Resource not accessible by integration" });
    const response = await throttledFetch()(`${API}/private`);
    expect(response.status).toBe(403);
    expect(await response.json()).toStrictEqual({
      message: "Resource not accessible by integration",
    });
  });

  it("counts a 503 with Retry-After only when told to", async () => {
    nock(API).get("/busy").twice().reply(503, "down", { "retry-after": "30" });
    const plain = await throttledFetch()(`${API}/busy`);
    expect(plain.status).toBe(503);
    const error = await rejection(throttledFetch({ treat503AsThrottle: true })(`${API}/busy`));
    expect(error.retryAfterSeconds).toBe(30);
  });

  it("rejects with the caller's abort reason when aborted before the response", async () => {
    nock(API).get("/slow").delay(2_000).reply(429, "", { "retry-after": "1" });
    const controller = new AbortController();
    const pending = throttledFetch()(`${API}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("caller gave up")), 20);
    await expect(pending).rejects.toThrow(/caller gave up|aborted/);
  });

  it("keeps credentials, query strings and cookies out of the error", async () => {
    nock(API).get("/search").query(true).reply(
      429,
      {
        message:
          "Key sk_live_SECRETKEY123 for https://api.example.com/search?api_key=sk_live_SECRETKEY123 used too often; token tok_ABCDEF99",
      },
      { "retry-after": "5", "set-cookie": "session=COOKIEVALUE42; Path=/" },
    );
    const error = await rejection(
      throttledFetch({ limit: "search" })(`${API}/search?api_key=sk_live_SECRETKEY123`, {
        headers: { authorization: "Bearer tok_ABCDEF99" },
      }),
    );
    const everything = JSON.stringify({
      ...error,
      message: error.message,
      result: error.toToolResult(),
    });
    for (const secret of [
      "sk_live_SECRETKEY123",
      "tok_ABCDEF99",
      "COOKIEVALUE42",
      "api_key",
      "session=",
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(error.upstreamMessage).toBe(
      "Key [redacted] for https://api.example.com/search used too often; token [redacted]",
    );
  });

  it.each([
    [{ limit: "" }, /`limit`/],
    [{ maxRetryAfterSeconds: -1 }, /`maxRetryAfterSeconds`/],
    [{ defaultRetryAfterSeconds: Number.NaN }, /`defaultRetryAfterSeconds`/],
    [{ bodyTimeoutMs: -5 }, /`bodyTimeoutMs`/],
    [{ fetch: "nope" }, /`fetch`/],
  ])("throws at construction for %o, naming the option", (options, message) => {
    expect(() => throttledFetch(options as never)).toThrow(message);
  });

  describe("headers of any shape, read once", () => {
    const body = JSON.stringify({ message: "Slow down" });
    /** A Response-like object around `headers`, as a custom `fetch` may return. */
    const answering = (headers: unknown) => async () =>
      ({ status: 429, headers, body: new Response(body).body, clone() {} }) as unknown as Response;
    const json = { "content-type": "application/json", "retry-after": "7" };

    it.each([
      ["the global Headers", () => new Headers(json), 7],
      [
        // Joined as fetch's `get` joins it, "7, 9": no number, so no wait is taken from it.
        "the global Headers, Retry-After repeated",
        () => {
          const headers = new Headers(json);
          headers.append("retry-after", "9");
          return headers;
        },
        undefined,
      ],
      [
        "undici's own Headers (not the global class)",
        async () => new (await import("undici")).Headers(json),
        7,
      ],
      ["a Map", () => new Map(Object.entries(json)), 7],
      [
        "a proxy posing as the global Headers",
        () =>
          new Proxy(new Headers(json), {
            get: (target, name) => {
              const value = Reflect.get(target, name, target);
              return typeof value === "function" ? value.bind(target) : value;
            },
          }),
        7,
      ],
    ])("%s", async (_shape, make, seconds) => {
      const headers = await make();
      const call = throttledFetch({ fetch: answering(headers) });
      const error = await rejection(call("https://api.example.com/x"));
      expect(error.retryAfterSeconds).toBe(seconds);
      expect(error.delaySource).toBe(seconds === undefined ? "none" : "retry-after");
      expect(error.upstreamMessage).toBe("Slow down");
    });
  });
});
