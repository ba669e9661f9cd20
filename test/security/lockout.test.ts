// Attack: user A's throttle locks out user B. The partition must tell callers apart by every
// credential a request carries (design §8), wherever it travels: query string, any header whose
// name says it is a key, the MCP request's own headers.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  parseRateLimitedResult,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { serveV1 } from "../integration/interop/hosts.js";
import { throttleOf, undiciCaller } from "./helpers.js";

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** An upstream that throttles each caller (by the credential `who` reads) once, for 600 s. */
async function throttlingEachCallerOnce(
  who: (url: URL, headers: Record<string, unknown>) => string,
) {
  const seen = new Set<string>();
  upstream = await startServer((req, res) => {
    const caller = who(new URL(req.url ?? "/", "http://x"), req.headers);
    if (!seen.has(caller)) {
      seen.add(caller);
      res.writeHead(429, { "content-type": "application/json", "retry-after": "600" });
      res.end(JSON.stringify({ message: "slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  return upstream;
}

type Request = { path: string; headers: Record<string, string> };
const cases: [
  string,
  (user: string) => Request,
  (url: URL, headers: Record<string, unknown>) => string,
][] = [
  [
    "?api_key=",
    (user) => ({ path: `/v1?api_key=${user}`, headers: {} }),
    (url) => url.searchParams.get("api_key") ?? "",
  ],
  [
    "?key= (Google)",
    (user) => ({ path: `/v1?key=${user}`, headers: {} }),
    (url) => url.searchParams.get("key") ?? "",
  ],
  [
    "x-goog-api-key",
    (user) => ({ path: "/v1", headers: { "x-goog-api-key": user } }),
    (_, h) => String(h["x-goog-api-key"]),
  ],
  [
    "ocp-apim-subscription-key (Azure)",
    (user) => ({ path: "/v1", headers: { "ocp-apim-subscription-key": user } }),
    (_, h) => String(h["ocp-apim-subscription-key"]),
  ],
  [
    "x-rapidapi-key",
    (user) => ({ path: "/v1", headers: { "x-rapidapi-key": user } }),
    (_, h) => String(h["x-rapidapi-key"]),
  ],
  [
    "a bot token in the path (Telegram)",
    (user) => ({ path: `/bot123456:${user}/sendMessage`, headers: {} }),
    (url) => url.pathname,
  ],
];

const alice = "AliceKey0000000000000001";
const bob = "BobKey00000000000000000002";

describe("a throttled caller does not lock out another (throttledFetch)", () => {
  it.each(cases)("with the credential in %s", async (name, requestOf, who) => {
    const { url } = await throttlingEachCallerOnce(who);
    // A limit per case: `cooldown: true` is one store per process, and one key is one caller
    // whichever header or parameter carries it.
    const guarded = throttledFetch({ limit: `search ${name}`, cooldown: true });
    const call = (user: string) => {
      const { path, headers } = requestOf(user);
      return guarded(`${url}${path}`, { headers });
    };
    await throttleOf(call(alice));
    expect((await throttleOf(call(alice))).delaySource).toBe("cooldown");
    expect(upstream?.requests).toBe(1);
    // Bob reaches the upstream (and is throttled there on his own account).
    expect((await throttleOf(call(bob))).delaySource).toBe("retry-after");
    expect(upstream?.requests).toBe(2);
  });
});

describe("a throttled caller does not lock out another (throttleInterceptor)", () => {
  it.each(cases)("with the credential in %s", async (name, requestOf, who) => {
    const { url } = await throttlingEachCallerOnce(who);
    // Its own limit: `cooldown: true` is one store per process, shared with the cases above.
    const caller = undiciCaller(
      throttleInterceptor({ limit: `search-undici ${name}`, cooldown: true }),
    );
    try {
      const call = (user: string) => {
        const { path, headers } = requestOf(user);
        return caller.call(`${url}${path}`, headers);
      };
      await throttleOf(call(alice));
      expect((await throttleOf(call(alice))).delaySource).toBe("cooldown");
      expect((await throttleOf(call(bob))).delaySource).toBe("retry-after");
      expect(upstream?.requests).toBe(2);
    } finally {
      await caller.close();
    }
  });
});

describe("a throttled MCP client does not lock out another (withUpstreamThrottle, real MCP server)", () => {
  it("tells clients apart by the x-api-key each one sends, passed on to the upstream", async () => {
    // The upstream throttles everyone once: the tool's cooldown decides who is answered from
    // memory, by the credential the upstream request carries, here each MCP caller's own key.
    let calls = 0;
    upstream = await startServer((_req, res) => {
      calls += 1;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "600" });
      res.end(JSON.stringify({ message: "slow down" }));
    });
    const api = throttledFetch();
    const url = upstream.url;
    // One wrapped callback, so one cooldown, for every request the stateless server serves.
    const search = withUpstreamThrottle(
      async (
        { query }: { query: string },
        extra: { requestInfo?: { headers: Record<string, unknown> } },
      ) => {
        const key = String(extra.requestInfo?.headers["x-api-key"] ?? "");
        await api(`${url}/search?q=${query}`, { headers: { "x-api-key": key } });
        return { content: [{ type: "text" as const, text: "hits" }] };
      },
      { limit: "search_rate_limit", cooldown: true },
    );
    const mcp = await serveV1(() => {
      const server = new McpServer({ name: "lockout", version: "1.0.0" });
      server.registerTool("search", { inputSchema: { query: z.string() } }, search);
      return server;
    });
    const clientWith = async (key: string) => {
      const client = new Client({ name: key, version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(mcp.url, {
          requestInit: { headers: { "x-api-key": key } },
        }),
      );
      return client;
    };
    const a = await clientWith(alice);
    const b = await clientWith(bob);
    try {
      const search = (client: Client) =>
        client.callTool({ name: "search", arguments: { query: "q" } });
      expect(parseRateLimitedResult(await search(a))?.retry_after_seconds).toBe(600);
      expect(parseRateLimitedResult(await search(a))?.limit).toBe("search_rate_limit");
      expect(calls).toBe(1);
      expect(parseRateLimitedResult(await search(b))?.retry_after_seconds).toBe(600);
      expect(calls).toBe(2);
    } finally {
      await a.close();
      await b.close();
      await mcp.close();
    }
  });
});

describe("a caller cannot slip out of a cooldown by rotating made-up headers", () => {
  it("with a verified bearer token, the MCP request's other headers do not split its partition", async () => {
    let calls = 0;
    const tool = withUpstreamThrottle(
      async (_args: object, _extra: object) => {
        calls += 1;
        throw Object.assign(new Error("429"), { status: 429, headers: { "retry-after": "60" } });
      },
      { limit: "search", cooldown: true },
    );
    for (let i = 0; i < 5; i += 1) {
      await tool(
        {},
        {
          authInfo: { token: "verified-token-of-alice" },
          requestInfo: { headers: { "x-whatever-token": `rotated-${i}-value` } },
        },
      );
    }
    expect(calls).toBe(1);
  });
});
