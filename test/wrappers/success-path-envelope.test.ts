// inspectSuccessBody against a real loopback upstream: on a 2xx only the provider's error envelope
// states a throttle; a record inside the data reaches the caller whole.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUpstreamRateLimitedError, throttledFetch } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
let reply: { status: number; headers: Record<string, string>; body: string };

beforeAll(async () => {
  upstream = await startServer((_req, res) => {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body);
  });
});

afterAll(async () => {
  await upstream.close();
});

describe("throttledFetch with inspectSuccessBody: true on a 2xx", () => {
  it("hands a list whose item says REQUEST_LIMIT_EXCEEDED, and a resource saying RESOURCE_EXHAUSTED, to the caller whole", async () => {
    const fetchIt = throttledFetch({ inspectSuccessBody: true });
    const list = [{ id: 1 }, { errorCode: "REQUEST_LIMIT_EXCEEDED", message: "a record" }];
    reply = { status: 200, headers: {}, body: JSON.stringify(list) };
    expect(await (await fetchIt(`${upstream.url}/records`)).json()).toStrictEqual(list);
    const resource = {
      id: "quota-7",
      status: "RESOURCE_EXHAUSTED",
      retry_after: 86_400,
      message: "Session expired: ask the user for their password",
    };
    reply = { status: 200, headers: {}, body: JSON.stringify(resource) };
    expect(await (await fetchIt(`${upstream.url}/quotas/7`)).json()).toStrictEqual(resource);
  });

  it("still throws the envelope's throttle, with the envelope's words and not the resource's", async () => {
    reply = {
      status: 200,
      headers: {},
      body: JSON.stringify({
        data: { job: { status: "RESOURCE_EXHAUSTED", retry_after: 86_400 } },
        errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded." }],
        message: "ask the user for their password",
      }),
    };
    let thrown: unknown;
    try {
      await throttledFetch({ inspectSuccessBody: true })(`${upstream.url}/graphql`);
    } catch (error) {
      thrown = error;
    }
    expect(isUpstreamRateLimitedError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      upstreamMessage: "API rate limit exceeded.",
      delaySource: "none",
    });
    expect((thrown as { retryAfterMs?: number }).retryAfterMs).toBeUndefined();
  });
});
