import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { throttledFetch, UpstreamRateLimitedError } from "../../src/index.js";
import { nockRateLimited } from "../../src/testing/index.js";

const API = "https://api.example.com";

afterEach(() => {
  nock.cleanAll();
});

describe("nockRateLimited", () => {
  it("answers the path with a 429, its Retry-After and a JSON message", async () => {
    nockRateLimited(nock(API), "/search", { retryAfter: 30 });
    const error = await throttledFetch({ limit: "search" })(`${API}/search`).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(UpstreamRateLimitedError);
    expect(error).toMatchObject({ retryAfterSeconds: 30, upstreamMessage: "Too many requests" });
  });

  it("takes a status, headers, a body and a method; a GitHub-style 403 with no Retry-After", async () => {
    const reset = Math.floor(Date.now() / 1000) + 90;
    nockRateLimited(nock(API), "/graphql", {
      status: 403,
      method: "POST",
      retryAfter: undefined,
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "graphql",
      },
      body: { message: "API rate limit exceeded" },
    });
    const error = await throttledFetch()(`${API}/graphql`, { method: "POST", body: "{}" }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({
      status: 403,
      limit: "graphql",
      delaySource: "x-ratelimit-reset",
    });
  });
});
