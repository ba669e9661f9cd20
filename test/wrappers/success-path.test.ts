// The two success-path opt-ins of throttledFetch against a real loopback upstream: reading a
// bounded 2xx JSON body for a throttle it states, and pre-emption by a spent quota.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EVENT_CHANNELS,
  isUpstreamRateLimitedError,
  MemoryCooldownStore,
  type ThrottleEvent,
  throttledFetch,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let upstream: TestServer;
let reply: Reply;

beforeAll(async () => {
  upstream = await startServer((_req, res) => {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body);
  });
});

afterAll(async () => {
  await upstream.close();
});

const epoch = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

function githubGraphqlLimit(): Reply {
  return {
    status: 200,
    headers: {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": epoch(600),
      "x-ratelimit-resource": "graphql",
    },
    body: JSON.stringify({
      errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for user ID 1." }],
    }),
  };
}

async function thrown(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("no error thrown");
}

describe("throttledFetch reading a 2xx body (inspectSuccessBody)", () => {
  it("by default hands the 200 with RATE_LIMITED to the caller, body unread", async () => {
    reply = githubGraphqlLimit();
    const response = await throttledFetch()(`${upstream.url}/graphql`);
    expect(response.status).toBe(200);
    expect(await response.json()).toStrictEqual(JSON.parse(reply.body));
  });

  it("with true, throws GitHub GraphQL's primary limit: its reset and resource", async () => {
    reply = githubGraphqlLimit();
    const error = await thrown(
      throttledFetch({ inspectSuccessBody: true })(`${upstream.url}/graphql`),
    );
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      limit: "graphql",
      delaySource: "x-ratelimit-reset",
      upstreamMessage: "API rate limit exceeded for user ID 1.",
    });
    expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(599);
  });

  it("with a gate, reads only when the gate says so", async () => {
    reply = githubGraphqlLimit();
    const gated = throttledFetch({
      inspectSuccessBody: (header) => header("x-ratelimit-remaining") === "0",
    });
    expect(isUpstreamRateLimitedError(await thrown(gated(`${upstream.url}/graphql`)))).toBe(true);
    reply = { ...githubGraphqlLimit(), headers: { "x-ratelimit-remaining": "4999" } };
    const response = await gated(`${upstream.url}/graphql`);
    const body = (await response.json()) as { errors: { type: string }[] };
    expect(body.errors[0]?.type).toBe("RATE_LIMITED");
  });

  it("computes Shopify's wait from its cost budget", async () => {
    reply = {
      status: 200,
      headers: {},
      body: JSON.stringify({
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
        extensions: {
          cost: {
            requestedQueryCost: 300,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 },
          },
        },
      }),
    };
    const error = await thrown(
      throttledFetch({ inspectSuccessBody: true })(`${upstream.url}/admin`),
    );
    expect(error).toMatchObject({ delaySource: "graphql-cost", retryAfterSeconds: 4, status: 429 });
  });

  it("hands a 2xx that states no throttle to the caller whole", async () => {
    const data = { data: { viewer: { login: "octocat" } }, padding: "x".repeat(20_000) };
    reply = { status: 200, headers: {}, body: JSON.stringify(data) };
    const response = await throttledFetch({ inspectSuccessBody: true })(`${upstream.url}/graphql`);
    expect(await response.json()).toStrictEqual(data);
  });

  it("does not read a body declared larger than 64 KiB, nor one that is not JSON", async () => {
    const big = JSON.stringify({ errors: [{ type: "RATE_LIMITED" }], pad: "x".repeat(70_000) });
    reply = { status: 200, headers: {}, body: big };
    const response = await throttledFetch({ inspectSuccessBody: true })(upstream.url);
    expect((await response.text()).length).toBe(big.length);
    reply = { ...githubGraphqlLimit(), headers: { "content-type": "text/plain" } };
    expect((await throttledFetch({ inspectSuccessBody: true })(upstream.url)).status).toBe(200);
  });

  it("a gate that throws reads nothing and fails nothing", async () => {
    reply = githubGraphqlLimit();
    const fetch = throttledFetch({
      inspectSuccessBody: () => {
        throw new Error("gate bug");
      },
    });
    expect((await fetch(upstream.url)).status).toBe(200);
  });

  it("never names the limit after a host that carries a request credential", async () => {
    const secret = "tok9Q7xLm2Vb8Rc4";
    const body = JSON.stringify({ errors: [{ type: "RATE_LIMITED", message: "slow down" }] });
    const fetch = throttledFetch({
      inspectSuccessBody: true,
      credentials: [secret],
      fetch: async () =>
        new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
    });
    const error = await thrown(fetch(`https://${secret}.example.com/graphql`));
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(
      JSON.stringify({ ...(error as object), limit: (error as { limit: string }).limit }),
    ).not.toContain(secret);
    expect((error as { host?: string }).host).toBeUndefined();
  });

  it("rejects a inspectSuccessBody that is neither a boolean nor a function, naming it", () => {
    expect(() => throttledFetch({ inspectSuccessBody: "yes" as never })).toThrow(
      /`inspectSuccessBody`/,
    );
  });
});

describe("throttledFetch pre-empting a spent quota (preemptSpentQuota)", () => {
  it("opens the cooldown at remaining 0 with a reset; the next call never reaches the upstream", async () => {
    const reset = epoch(120);
    reply = {
      status: 200,
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset,
        "x-ratelimit-resource": "core",
      },
      body: "{}",
    };
    const fetch = throttledFetch({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
    });
    const first = await fetch(`${upstream.url}/repos`);
    expect(first.status).toBe(200);
    await first.text();
    const before = upstream.requests;
    const error = await thrown(fetch(`${upstream.url}/repos`));
    expect(upstream.requests).toBe(before);
    expect(error).toMatchObject({ limit: "core", delaySource: "cooldown", status: 429 });
    const { retryAfterSeconds, resetsAt } = error as { retryAfterSeconds: number; resetsAt: Date };
    expect(retryAfterSeconds).toBeGreaterThan(100);
    expect(retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(Math.round(resetsAt.getTime() / 1000)).toBe(Number(reset));
    // Only what the upstream said: no message is invented for a successful response.
    expect((error as { upstreamMessage?: string }).upstreamMessage).toBeUndefined();
  });

  it("reads Reddit's 0.0 remaining with its reset in seconds", async () => {
    reply = {
      status: 200,
      headers: { "x-ratelimit-remaining": "0.0", "x-ratelimit-reset": "225" },
      body: "{}",
    };
    const fetch = throttledFetch({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
    });
    await (await fetch(`${upstream.url}/api`)).text();
    const error = await thrown(fetch(`${upstream.url}/api`));
    expect(error).toMatchObject({ limit: "127.0.0.1", retryAfterSeconds: 225 });
  });

  it("remembers nothing with quota left, or with a spent quota and no reset", async () => {
    const fetch = throttledFetch({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
    });
    for (const headers of [
      { "x-ratelimit-remaining": "12", "x-ratelimit-reset": epoch(60) },
      { "x-ratelimit-remaining": "0" },
    ]) {
      reply = { status: 200, headers, body: "{}" };
      await (await fetch(`${upstream.url}/x`)).text();
      expect((await fetch(`${upstream.url}/x`)).status).toBe(200);
    }
  });

  it("is off by default: a spent quota on a 200 changes nothing", async () => {
    reply = {
      status: 200,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": epoch(60) },
      body: "{}",
    };
    const fetch = throttledFetch({ cooldown: { store: new MemoryCooldownStore() } });
    await (await fetch(`${upstream.url}/y`)).text();
    expect((await fetch(`${upstream.url}/y`)).status).toBe(200);
  });

  it("needs a cooldown: without one, construction throws naming the option", () => {
    expect(() => throttledFetch({ preemptSpentQuota: true })).toThrow(/`preemptSpentQuota`/);
  });

  it("reports the pre-emption as a preempt event (not a throttle): limit, status, reset, host", async () => {
    reply = {
      status: 200,
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": epoch(120),
        "x-ratelimit-resource": "core",
      },
      body: JSON.stringify({ message: "fine, token ghp_secretsecret" }),
    };
    const events: ThrottleEvent[] = [];
    const published: unknown[] = [];
    const listener = (message: unknown) => published.push(message);
    subscribe(EVENT_CHANNELS.preempt, listener);
    try {
      const fetch = throttledFetch({
        cooldown: { store: new MemoryCooldownStore() },
        preemptSpentQuota: true,
        onEvent: (event) => events.push(event),
      });
      const init = { headers: { authorization: "token ghp_secret" } };
      await (await fetch(`${upstream.url}/repos`, init)).text();
      await thrown(fetch(`${upstream.url}/repos`, init));
    } finally {
      unsubscribe(EVENT_CHANNELS.preempt, listener);
    }
    expect(events.map((event) => event.type)).toStrictEqual(["preempt", "cooldown-hit"]);
    const [preempt] = events;
    expect(preempt).toMatchObject({
      type: "preempt",
      source: "throttledFetch",
      limit: "core",
      status: 200,
      delaySource: "x-ratelimit-reset",
      host: "127.0.0.1",
    });
    const { retryAfterMs } = preempt as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(100_000);
    expect(retryAfterMs).toBeLessThanOrEqual(120_000);
    // Numbers and identifiers only: no message, no credential.
    expect(Object.keys(preempt as object).sort()).toStrictEqual(
      ["delaySource", "host", "limit", "retryAfterMs", "source", "status", "type"].sort(),
    );
    expect(JSON.stringify(events)).not.toContain("ghp_");
    expect(published).toStrictEqual([preempt]);
  });

  it("reports nothing when a spent quota gives no reset", async () => {
    reply = { status: 200, headers: { "x-ratelimit-remaining": "0" }, body: "{}" };
    const events: ThrottleEvent[] = [];
    const fetch = throttledFetch({
      cooldown: { store: new MemoryCooldownStore() },
      preemptSpentQuota: true,
      onEvent: (event) => events.push(event),
    });
    await (await fetch(`${upstream.url}/z`)).text();
    expect(events).toStrictEqual([]);
  });
});
