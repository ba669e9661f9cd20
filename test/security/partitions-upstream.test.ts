// The upstream limits the credential its request carried, not the MCP caller. A server-wide key
// is one cooldown for every caller; a caller's own token passed through is that caller's alone.
// And the cooldown one caller opened tells the next caller only "this key is throttled for N
// seconds": none of the first caller's request or answer.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MemoryCooldownStore,
  parseRateLimitedResult,
  sdkFetch,
  type ThrottleEvent,
  throttledFetch,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

/** Said by the upstream to alice only: her prompt echoed, a request id, her key's last digits. */
const ALICE_ANSWER = "Rate limit reached for alice-prompt-7f3a (req_alice_91c2, key …9xQ4)";

let upstream: TestServer;
/** Upstream requests by the Authorization they carried. */
const seen = new Map<string, number>();
/** Authorizations the upstream throttles (a 30 s penalty); every other one gets an answer. */
const throttledKeys = new Set(["Bearer sk-server-wide-key-0001", "Bearer alice-own-token-0001"]);

function authorizationOf(req: IncomingMessage): string {
  return String(req.headers.authorization ?? "");
}

let mcp: Server;
let mcpUrl: URL;
const store = new MemoryCooldownStore();

/** The server's one OpenAI client, as a tool author writes it: one key for every caller. */
const openai = () =>
  new OpenAI({
    apiKey: "sk-server-wide-key-0001",
    baseURL: `${upstream.url}/v1`,
    fetch: sdkFetch({ cooldown: { store } }),
  });
let serverWide: OpenAI;
const searchApi = throttledFetch({ limit: "search", cooldown: { store } });
const perUserFetch = throttledFetch({ limit: "per_user", cooldown: { store } });

/** One request's server (the SDK's stateless pattern), with tools over each door. */
function serverForOneRequest(): McpServer {
  const server = new McpServer({ name: "partitions", version: "1.0.0" });
  server.registerTool(
    "ask",
    {},
    withUpstreamThrottle(
      async () => {
        const answer = await serverWide.chat.completions.create({
          model: "gpt-test",
          messages: [{ role: "user", content: "hello" }],
        });
        return { content: [{ type: "text", text: String(answer.choices[0]?.message.content) }] };
      },
      { limit: "openai_requests" },
    ),
  );
  server.registerTool(
    "search",
    {},
    withUpstreamThrottle(async () => {
      const response = await searchApi(`${upstream.url}/search`, {
        headers: { authorization: "Bearer sk-server-wide-key-0001" },
      });
      return { content: [{ type: "text", text: await response.text() }] };
    }),
  );
  // The caller's own token, passed through to the upstream.
  server.registerTool(
    "mine",
    {},
    withUpstreamThrottle(async (extra) => {
      const authorization = String(extra.requestInfo?.headers.authorization ?? "");
      const token = authorization.replace(/^Bearer /, "");
      const response = await perUserFetch(`${upstream.url}/mine`, {
        headers: { authorization: `Bearer ${token}-own-token-0001` },
      });
      return { content: [{ type: "text", text: await response.text() }] };
    }),
  );
  return server;
}

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    const key = authorizationOf(req);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (throttledKeys.has(key)) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
      res.end(JSON.stringify({ error: { message: ALICE_ANSWER, type: "requests" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "c1",
        object: "chat.completion",
        created: 0,
        model: "gpt-test",
        choices: [{ index: 0, message: { role: "assistant", content: "ok" } }],
      }),
    );
  });
  serverWide = openai();
  mcp = createServer(async (req, res) => {
    const server = serverForOneRequest();
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => mcp.listen(0, "127.0.0.1", resolve));
  mcpUrl = new URL(`http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  mcp.closeAllConnections();
  await new Promise<void>((resolve) => mcp.close(() => resolve()));
  await upstream.close();
});

async function caller(name: string): Promise<Client> {
  const client = new Client({ name: `host-of-${name}`, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, {
      requestInit: { headers: { authorization: `Bearer ${name}` } },
    }),
  );
  return client;
}

/** Each caller calls `tool` once, in turn; their results. */
async function eachCalls(names: string[], tool: string): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const name of names) {
    const client = await caller(name);
    try {
      results.push(await client.callTool({ name: tool, arguments: {} }));
    } finally {
      await client.close();
    }
  }
  return results;
}

describe("the default partition follows the upstream request's credential", () => {
  it.each([
    ["ask", "sdkFetch under the openai SDK", "openai_requests"],
    ["search", "throttledFetch", "search"],
  ])(
    "%s (%s): alice, bob and carol on one server-wide key make 1 upstream request inside the penalty",
    async (tool, _door, limit) => {
      const before = seen.get("Bearer sk-server-wide-key-0001") ?? 0;
      const results = await eachCalls(["alice", "bob", "carol"], tool);
      expect(results.map((result) => parseRateLimitedResult(result)?.limit)).toEqual([
        limit,
        limit,
        limit,
      ]);
      expect((seen.get("Bearer sk-server-wide-key-0001") ?? 0) - before).toBe(1);
      // bob and carol are told the key is throttled and for how long, and nothing more.
      for (const later of results.slice(1)) {
        const error = parseRateLimitedResult(later);
        expect(error?.retry_after_seconds).toBeGreaterThan(0);
        expect(error?.retry_after_seconds).toBeLessThanOrEqual(30);
        const text = JSON.stringify(later);
        for (const piece of ["alice", "7f3a", "req_", "9xQ4", "Rate limit reached"])
          expect(text).not.toContain(piece);
      }
    },
  );

  it("per-user tokens stay per user: alice's throttled token does not hold bob back", async () => {
    const results = await eachCalls(["alice", "alice", "bob"], "mine");
    expect(results.map((result) => parseRateLimitedResult(result)?.limit)).toEqual([
      "per_user",
      "per_user",
      undefined,
    ]);
    expect(seen.get("Bearer alice-own-token-0001")).toBe(1);
    expect(seen.get("Bearer bob-own-token-0001")).toBe(1);
  });
});

describe("what is not part of the upstream credential", () => {
  it("an Idempotency-Key new on every request does not make each request a partition of its own", async () => {
    const api = throttledFetch({
      limit: "idempotent",
      cooldown: { store: new MemoryCooldownStore() },
    });
    const before = seen.get("Bearer sk-server-wide-key-0001") ?? 0;
    for (const nonce of ["a1b2c3d4e5f6", "f6e5d4c3b2a1", "0a0b0c0d0e0f"]) {
      const error = await api(`${upstream.url}/pay`, {
        method: "POST",
        headers: { authorization: "Bearer sk-server-wide-key-0001", "idempotency-key": nonce },
      }).catch((reason: unknown) => reason);
      expect(error).toMatchObject({ name: "UpstreamRateLimitedError" });
    }
    expect((seen.get("Bearer sk-server-wide-key-0001") ?? 0) - before).toBe(1);
  });
});

describe("sdkFetch with cooldown, under the real openai SDK", () => {
  it("answers a throttled key at once, without a request, with the time left and no upstream text", async () => {
    const own = new MemoryCooldownStore();
    const client = new OpenAI({
      apiKey: "sk-server-wide-key-0001",
      baseURL: `${upstream.url}/v1`,
      fetch: sdkFetch({ cooldown: { store: own } }),
    });
    const ask = () =>
      client.chat.completions
        .create({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] })
        .catch((reason: unknown) => reason);
    const before = seen.get("Bearer sk-server-wide-key-0001") ?? 0;
    const first = await ask();
    expect(first).toBeInstanceOf(OpenAI.RateLimitError);
    // The SDK did not retry (x-should-retry: false): one request.
    expect((seen.get("Bearer sk-server-wide-key-0001") ?? 0) - before).toBe(1);
    const second = await ask();
    expect(second).toBeInstanceOf(OpenAI.RateLimitError);
    expect((seen.get("Bearer sk-server-wide-key-0001") ?? 0) - before).toBe(1);
    const error = second as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(error.headers?.get("retry-after"))).toBeLessThanOrEqual(30);
    expect(error.message).not.toContain("alice");
    expect(error.message).not.toContain("Rate limit reached");
  });

  it("reports a hit once, as a cooldown-hit: the 429 it answers the SDK with is no second throttle", async () => {
    const events: ThrottleEvent[] = [];
    const onEvent = (event: ThrottleEvent) => events.push(event);
    const client = new OpenAI({
      apiKey: "sk-server-wide-key-0001",
      baseURL: `${upstream.url}/v1`,
      fetch: sdkFetch({ cooldown: { store: new MemoryCooldownStore() }, onEvent }),
    });
    const ask = withUpstreamThrottle(
      async () => {
        await client.chat.completions.create({ model: "gpt-test", messages: [] });
        return { content: [{ type: "text" as const, text: "answered" }] };
      },
      { limit: "openai_requests", onEvent },
    );
    expect(parseRateLimitedResult(await ask())?.limit).toBe("openai_requests");
    expect(events.map((event) => event.type)).toStrictEqual(["throttle"]);
    expect(parseRateLimitedResult(await ask())?.limit).toBe("openai_requests");
    expect(events.map((event) => event.type)).toStrictEqual(["throttle", "cooldown-hit"]);
  });

  it("sends another key's request: the cooldown is the key's, not the upstream's", async () => {
    const own = new MemoryCooldownStore();
    const make = (apiKey: string) =>
      new OpenAI({
        apiKey,
        baseURL: `${upstream.url}/v1`,
        fetch: sdkFetch({ cooldown: { store: own } }),
      });
    const throttled = await make("sk-server-wide-key-0001")
      .chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "a" }] })
      .catch((reason: unknown) => reason);
    expect(throttled).toBeInstanceOf(OpenAI.RateLimitError);
    const other = await make("sk-other-key-0002").chat.completions.create({
      model: "gpt-test",
      messages: [{ role: "user", content: "b" }],
    });
    expect(other.choices[0]?.message.content).toBe("ok");
  });

  it("cooldown.partition still overrides: one partition for every key when the author says so", async () => {
    const own = new MemoryCooldownStore();
    const fetchLike = sdkFetch({ cooldown: { store: own, partition: () => "everyone" } });
    const make = (apiKey: string) =>
      new OpenAI({ apiKey, baseURL: `${upstream.url}/v1`, fetch: fetchLike });
    const ask = (client: OpenAI) =>
      client.chat.completions
        .create({ model: "gpt-test", messages: [{ role: "user", content: "c" }] })
        .catch((reason: unknown) => reason);
    expect(await ask(make("sk-server-wide-key-0001"))).toBeInstanceOf(OpenAI.RateLimitError);
    const before = seen.get("Bearer sk-other-key-0003") ?? 0;
    expect(await ask(make("sk-other-key-0003"))).toBeInstanceOf(OpenAI.RateLimitError);
    expect((seen.get("Bearer sk-other-key-0003") ?? 0) - before).toBe(0);
  });

  it("rejects a bad cooldown option, naming it", () => {
    expect(() => sdkFetch({ cooldown: "yes" as never })).toThrow(/`cooldown`/);
  });
});

describe("what a caller learns from another caller's throttle on one key", () => {
  it("is the limit and the time left, never the upstream's text (any message, any headers)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.constantFrom("x-ratelimit-scope", "x-request-id", "x-echo"),
        async (message, header) => {
          const store = new MemoryCooldownStore();
          const upstreamFetch: typeof fetch = async () =>
            new Response(JSON.stringify({ error: { message } }), {
              status: 429,
              headers: {
                "content-type": "application/json",
                "retry-after": "30",
                [header]: message,
              },
            });
          const init = { headers: { authorization: "Bearer sk-server-wide-key-0001" } };
          const api = throttledFetch({ fetch: upstreamFetch, cooldown: { store } });
          await api("https://api.example.com/a", init).catch(() => undefined);
          const later = (await api("https://api.example.com/a", init).catch(
            (reason: unknown) => reason,
          )) as { delaySource?: string; upstreamMessage?: string; toToolResult(): unknown };
          expect(later.delaySource).toBe("cooldown");
          expect(later.upstreamMessage).toBeUndefined();
          const sdk = sdkFetch({ fetch: upstreamFetch, cooldown: { store } });
          await sdk("https://api.example.com/b", init);
          const answer = await sdk("https://api.example.com/b", init);
          const body = await answer.text();
          // Only the limit's name (the host here) and the whole seconds left.
          expect(body).toMatch(
            /^\{"error":\{"message":"api\.example\.com is rate limited; retry after \d+ s","type":"rate_limited"\}\}$/,
          );
          // And the library's own marks: no header of the upstream's.
          expect([...answer.headers.keys()].sort()).toEqual([
            "content-type",
            "retry-after",
            "retry-after-ms",
            "x-should-retry",
          ]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
