// The success-path opt-ins of throttleInterceptor (inspectSuccessBody, preemptSpentQuota), as
// throttledFetch has them, through undici against a real loopback upstream.

import { gzipSync } from "node:zlib";
import { Agent, request, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  isUpstreamRateLimitedError,
  MemoryCooldownStore,
  type ThrottleEvent,
  type ThrottleInterceptorOptions,
  throttleInterceptor,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { rejection } from "../helpers/throttle.js";

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

let upstream: TestServer | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await upstream?.close();
  upstream = undefined;
});

async function serve(reply: () => Reply) {
  upstream = await startServer((_req, res) => {
    const { status, headers, body } = reply();
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  });
  return upstream;
}

function composed(options?: ThrottleInterceptorOptions) {
  const agent = new Agent();
  agents.push(agent);
  return agent.compose(throttleInterceptor(options));
}

const epoch = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);
const LIMITED = JSON.stringify({
  errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for user ID 1." }],
});

function githubGraphqlLimit(): Reply {
  return {
    status: 200,
    headers: {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": epoch(600),
      "x-ratelimit-resource": "graphql",
    },
    body: LIMITED,
  };
}

describe("throttleInterceptor reading a 2xx body (inspectSuccessBody)", () => {
  it("by default hands the 200 with RATE_LIMITED to the caller, body intact", async () => {
    const { url } = await serve(githubGraphqlLimit);
    const response = await request(`${url}/graphql`, { dispatcher: composed() });
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe(LIMITED);
  });

  it("with true, fails GitHub GraphQL's primary limit with its reset and resource", async () => {
    const { url } = await serve(githubGraphqlLimit);
    const events: ThrottleEvent[] = [];
    const error = await rejection(
      request(`${url}/graphql`, {
        dispatcher: composed({ inspectSuccessBody: true, onEvent: (e) => events.push(e) }),
      }),
    );
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      limit: "graphql",
      delaySource: "x-ratelimit-reset",
      upstreamMessage: "API rate limit exceeded for user ID 1.",
    });
    expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect(events.map((e) => [e.type, e.source])).toStrictEqual([
      ["throttle", "throttleInterceptor"],
    ]);
  });

  it("with a gate, reads only when the gate says so (the header name in any case)", async () => {
    let reply = githubGraphqlLimit();
    const { url } = await serve(() => reply);
    const dispatcher = composed({
      inspectSuccessBody: (header) => header("X-RateLimit-Remaining") === "0",
    });
    expect(await rejection(request(`${url}/graphql`, { dispatcher }))).toMatchObject({
      limit: "graphql",
    });
    reply = { ...reply, headers: { "x-ratelimit-remaining": "4999" } };
    const response = await request(`${url}/graphql`, { dispatcher });
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe(LIMITED);
  });

  it("replays a 2xx that states no throttle whole, gzip too, to undici's fetch", async () => {
    const data = JSON.stringify({ data: { viewer: { login: "octocat" } }, pad: "x".repeat(5000) });
    const { url } = await serve(() => ({
      status: 200,
      headers: { "content-encoding": "gzip" },
      body: gzipSync(data),
    }));
    const dispatcher = composed({ inspectSuccessBody: true });
    const response = await undiciFetch(`${url}/graphql`, { dispatcher });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(data);
  });

  it("reads a gzip body that states a throttle", async () => {
    const { url } = await serve(() => ({
      ...githubGraphqlLimit(),
      headers: { ...githubGraphqlLimit().headers, "content-encoding": "gzip" },
      body: gzipSync(LIMITED),
    }));
    // undici's fetch wraps a dispatcher's failure in "fetch failed", the throttle its cause.
    const failure = await undiciFetch(`${url}/graphql`, {
      dispatcher: composed({ inspectSuccessBody: true }),
    }).then(
      () => undefined,
      (error: unknown) => error as { cause?: unknown },
    );
    expect(isUpstreamRateLimitedError(failure?.cause)).toBe(true);
    expect(failure?.cause).toMatchObject({ limit: "graphql", delaySource: "x-ratelimit-reset" });
  });

  it("hands over a body past 64 KiB whole, unread; and does not hold one that is not JSON", async () => {
    const big = JSON.stringify({ errors: [{ type: "RATE_LIMITED" }], pad: "y".repeat(70_000) });
    let reply: Reply = { status: 200, headers: {}, body: big };
    const { url } = await serve(() => reply);
    const dispatcher = composed({ inspectSuccessBody: true });
    const response = await request(`${url}/graphql`, { dispatcher });
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe(big);
    reply = { status: 200, headers: { "content-type": "text/plain" }, body: LIMITED };
    expect(await (await request(`${url}/graphql`, { dispatcher })).body.text()).toBe(LIMITED);
  });

  it("keeps the connection for the next request after failing a body throttle", async () => {
    const server = await serve(githubGraphqlLimit);
    const dispatcher = composed({ inspectSuccessBody: true });
    for (let i = 0; i < 20; i += 1)
      await rejection(request(`${server.url}/graphql`, { dispatcher }));
    // Failed at once, as undici fails a bare request: a call that follows at once may open one
    // more connection before the socket is back in the pool, never one per call.
    expect(server.connectionsOpened).toBeLessThanOrEqual(2);
  });

  it("hands over a body that is slow to come after bodyTimeoutMs, as it is", async () => {
    // The upstream ends the body only once the caller has the response: held to its end, the
    // response would never come.
    let rest: (() => void) | undefined;
    upstream = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":');
      rest = () => res.end('{"ok":true}}');
    });
    const dispatcher = composed({ inspectSuccessBody: true, bodyTimeoutMs: 30 });
    const response = await request(`${upstream.url}/graphql`, { dispatcher });
    expect(response.statusCode).toBe(200);
    rest?.();
    expect(await response.body.text()).toBe('{"data":{"ok":true}}');
  });

  it("a gate that throws reads nothing and fails nothing", async () => {
    const { url } = await serve(githubGraphqlLimit);
    const dispatcher = composed({
      inspectSuccessBody: () => {
        throw new Error("gate broke");
      },
    });
    expect(await (await request(`${url}/graphql`, { dispatcher })).body.text()).toBe(LIMITED);
  });

  it("rejects a inspectSuccessBody that is neither a boolean nor a function, naming it", () => {
    expect(() => throttleInterceptor({ inspectSuccessBody: "yes" as never })).toThrow(
      /`inspectSuccessBody`/,
    );
  });
});

describe("throttleInterceptor pre-empting a spent quota (preemptSpentQuota)", () => {
  it("opens the cooldown at remaining 0 with a reset; the next request never reaches the upstream", async () => {
    const server = await serve(() => ({
      status: 200,
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": epoch(120),
        "x-ratelimit-resource": "core",
      },
      body: "{}",
    }));
    const events: ThrottleEvent[] = [];
    const dispatcher = composed({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
      onEvent: (e) => events.push(e),
    });
    const first = await request(`${server.url}/repos`, { dispatcher });
    expect(first.statusCode).toBe(200);
    expect(await first.body.text()).toBe("{}");
    const before = server.requests;
    const error = await rejection(request(`${server.url}/repos`, { dispatcher }));
    expect(server.requests).toBe(before);
    expect(error).toMatchObject({ limit: "core", delaySource: "cooldown", status: 429 });
    expect((error as { upstreamMessage?: string }).upstreamMessage).toBeUndefined();
    expect(events.map((e) => e.type)).toStrictEqual(["preempt", "cooldown-hit"]);
    expect(events[0]).toMatchObject({
      source: "throttleInterceptor",
      limit: "core",
      status: 200,
      delaySource: "x-ratelimit-reset",
      host: "127.0.0.1",
    });
  });

  it("remembers nothing with quota left, or with a spent quota and no reset", async () => {
    let headers: Record<string, string> = {};
    const { url } = await serve(() => ({ status: 200, headers, body: "{}" }));
    const dispatcher = composed({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
    });
    for (const next of [
      { "x-ratelimit-remaining": "12", "x-ratelimit-reset": epoch(60) },
      { "x-ratelimit-remaining": "0" },
    ]) {
      headers = next;
      await (await request(`${url}/x`, { dispatcher })).body.text();
      expect((await request(`${url}/x`, { dispatcher })).statusCode).toBe(200);
    }
  });

  it("needs a cooldown: without one, construction throws naming the option", () => {
    expect(() => throttleInterceptor({ preemptSpentQuota: true })).toThrow(/`preemptSpentQuota`/);
  });
});
