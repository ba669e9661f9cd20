// The recipes docs/adopt.md gives for retry loops, run against a real upstream: a throttle is
// final (one request), every other failure is still retried.

import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import axios from "axios";
import pRetry from "p-retry";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toUpstreamRateLimitedError } from "../../src/errors/recognize.js";
import { isUpstreamRateLimitedError } from "../../src/errors/upstream-rate-limited-error.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
let hits: Record<string, number> = {};

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    const path = req.url?.split("?")[0] ?? "";
    hits[path] = (hits[path] ?? 0) + 1;
    if (path.startsWith("/limited") || path.startsWith("/repos/")) {
      const reset = String(Math.floor(Date.now() / 1000) + 60);
      res.writeHead(path.startsWith("/repos/") ? 403 : 429, {
        "content-type": "application/json",
        "retry-after": "30",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset,
      });
      res.end(JSON.stringify({ message: "API rate limit exceeded" }));
      return;
    }
    res.writeHead(500, { "content-type": "application/json" });
    res.end("{}");
  });
});
afterAll(() => upstream.close());
beforeEach(() => {
  hits = {};
});

/** The predicate: true for a throttle from this library's doors or a vendor SDK's error. */
const isThrottle = (error: unknown) => toUpstreamRateLimitedError(error) !== undefined;

describe("p-retry", () => {
  const api = throttledFetch({ limit: "search" });
  const call = (path: string) => async () => {
    const response = await api(`${upstream.url}${path}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response;
  };

  it("control: without the predicate, p-retry sends a throttled request four times", async () => {
    await expect(pRetry(call("/limited"), { retries: 3, minTimeout: 0 })).rejects.toThrow();
    expect(hits["/limited"]).toBe(4);
  });

  it("with shouldRetry: a throttle is sent once and rethrown as it is", async () => {
    const error = await pRetry(call("/limited"), {
      retries: 3,
      minTimeout: 0,
      shouldRetry: ({ error }) => !isThrottle(error),
    }).catch((e: unknown) => e);
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(hits["/limited"]).toBe(1);
  });

  it("with shouldRetry: any other failure is still retried", async () => {
    await expect(
      pRetry(call("/broken"), {
        retries: 2,
        minTimeout: 0,
        shouldRetry: ({ error }) => !isThrottle(error),
      }),
    ).rejects.toThrow("HTTP 500");
    expect(hits["/broken"]).toBe(3);
  });
});

describe("a hand-written loop", () => {
  async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        if (isThrottle(error) || attempt >= attempts) throw error;
      }
    }
  }

  it("stops at a vendor SDK's throttle error (axios) after one request", async () => {
    const error = await withRetry(() => axios.get(`${upstream.url}/limited`)).catch(
      (e: unknown) => e,
    );
    expect(toUpstreamRateLimitedError(error)).toMatchObject({ retryAfterSeconds: 30 });
    expect(hits["/limited"]).toBe(1);
  });

  it("retries everything else", async () => {
    await expect(withRetry(() => axios.get(`${upstream.url}/broken`))).rejects.toThrow();
    expect(hits["/broken"]).toBe(3);
  });
});

describe("Octokit's throttling plugin", () => {
  it("declines the retry in onRateLimit; the RequestError it throws is recognised", async () => {
    const ThrottledOctokit = Octokit.plugin(throttling);
    const octokit = new ThrottledOctokit({
      baseUrl: upstream.url,
      throttle: { onRateLimit: () => false, onSecondaryRateLimit: () => false },
    });
    const error = await octokit.rest.repos.get({ owner: "o", repo: "r" }).catch((e: unknown) => e);
    expect(toUpstreamRateLimitedError(error, { limit: "github" })).toMatchObject({
      limit: "github",
      status: 403,
    });
    expect(hits["/repos/o/r"]).toBe(1);
  });
});
