// The provider catalogue on the wire: each provider's documented throttle served by a real
// loopback upstream and read by throttledFetch (a 2xx through the inspectSuccessBody opt-in, a
// documented constant wait through defaultRetryAfterSeconds), with the clock at the catalogue's
// instant so absolute resets mean the same as in test/signals/providers.test.ts.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isUpstreamRateLimitedError, throttledFetch } from "../../src/index.js";
import { NOW, PROVIDERS, type ProviderFixture } from "../fixtures/providers.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
let serving: ProviderFixture["response"];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    const { status, headers, body } = serving;
    const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain" : "application/json";
    // node:http stamps `Date` from its own clock; the catalogue's instant is this process's.
    const date = new Date().toUTCString();
    res.writeHead(status, { "content-type": type, date, ...(headers as Record<string, string>) });
    res.end(text);
  });
});

afterAll(async () => {
  await upstream.close();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("throttledFetch on every provider's documented throttle", () => {
  it.each(PROVIDERS)("$provider", async ({ response, expected, documentedWaitSeconds }) => {
    serving = response;
    const fetch = throttledFetch({
      inspectSuccessBody: true,
      ...(documentedWaitSeconds === undefined
        ? {}
        : { defaultRetryAfterSeconds: documentedWaitSeconds }),
    });
    const error = await fetch(`${upstream.url}/api`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isUpstreamRateLimitedError(error), String(error)).toBe(true);
    const documented = expected.delaySource === "none" && documentedWaitSeconds !== undefined;
    expect(error).toMatchObject({
      status: response.status < 300 ? 429 : response.status,
      delaySource: documented ? "default" : expected.delaySource,
      limit: expected.limitName ?? "127.0.0.1",
    });
    const { retryAfterSeconds, resetsAt } = error as {
      retryAfterSeconds?: number;
      resetsAt?: Date;
    };
    expect(retryAfterSeconds).toBe(documented ? documentedWaitSeconds : expected.retryAfterSeconds);
    expect(resetsAt?.toISOString()).toBe(expected.resetsAt);
  });
});
