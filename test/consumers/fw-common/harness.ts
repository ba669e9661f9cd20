// Shared by every framework fixture (.ci/frameworks.sh copies it into each as src/harness.ts).
// A loopback upstream that always throttles, and the checks every framework must pass, made by
// the official SDK 1.x client over Streamable HTTP: the throttle arrives intact (isError, the
// text, the error object in structuredContent or _meta), with and without an outputSchema, and
// a cooldown keeps two callers apart.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parseRateLimitedResult, RATE_LIMITED_META_KEY } from "mcp-upstream-throttle";

export const LIMIT = "search_rate_limit";

export interface Upstream {
  url: string;
  /** Requests received, by path. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/** An upstream that answers every request 429 with Retry-After: 60. */
export async function startUpstream(): Promise<Upstream> {
  const requests = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    res.writeHead(429, { "content-type": "application/json", "retry-after": "60" });
    res.end(JSON.stringify({ message: "This endpoint has been requested too many times." }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Serves a fetch-style handler (`(Request) => Response`) with node:http on 127.0.0.1. */
export async function serveFetch(
  handler: (request: Request) => Response | Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? "GET",
      headers,
      ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
    });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A free port on 127.0.0.1, for frameworks that want one given. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function connect(url: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: "framework-check", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { "x-api-key": apiKey, authorization: `Bearer ${apiKey}` } },
    }),
  );
  return client;
}

export interface Expectations {
  /** Tool names and where each must carry the error object. */
  tools: Record<string, "structuredContent" | "meta">;
  /** A tool with `cooldown` that calls the upstream's `/cooled` with no credential of its caller. */
  cooldownTool?: string;
}

/** Runs the checks; prints one line per check, prefixed with the fixture's name. */
export async function check(
  name: string,
  mcpUrl: string,
  upstream: Upstream,
  expected: Expectations,
  options: { callers?: [string, string]; label?: string } = {},
): Promise<void> {
  const say = (line: string) =>
    console.log(`${name}: ${options.label ? `${options.label}: ` : ""}${line}`);
  const [first, second] = options.callers ?? ["key-alice", "key-bob"];
  const alice = await connect(mcpUrl, first);
  try {
    const { tools } = await alice.listTools();
    for (const [tool, placement] of Object.entries(expected.tools)) {
      assert.ok(tools.some((t) => t.name === tool), `${tool} is listed`);
      const result = (await alice.callTool({ name: tool, arguments: { query: "mcp" } })) as {
        isError?: boolean;
        content: { type: string; text?: string }[];
        structuredContent?: unknown;
        _meta?: Record<string, unknown>;
      };
      const error = parseRateLimitedResult(result);
      assert.ok(error, `${tool}: a rate_limited result, got ${JSON.stringify(result)}`);
      assert.equal(result.isError, true, `${tool}: isError`);
      assert.equal(error.limit, LIMIT);
      assert.equal(error.retry_after_seconds, 60);
      // The sentence, then the upstream's own words (the error's message), quoted.
      assert.equal(
        result.content[0]?.text,
        `Rate limited by ${LIMIT}. Retry after 60 seconds. The upstream said: ${JSON.stringify(error.message)}`,
      );
      if (placement === "meta") {
        assert.ok(result._meta?.[RATE_LIMITED_META_KEY], `${tool}: the error object in _meta`);
      } else {
        assert.deepEqual((result.structuredContent as { error?: unknown })?.error, error);
      }
      say(`${tool}: isError, text and error object intact in ${placement}`);
    }
    if (expected.cooldownTool) {
      const tool = expected.cooldownTool;
      const bob = await connect(mcpUrl, second);
      try {
        const call = (client: Client) =>
          client.callTool({ name: tool, arguments: { query: "mcp" } });
        const cooled = () => upstream.requests.get("/cooled") ?? 0;
        for (const client of [alice, alice]) assert.ok(parseRateLimitedResult(await call(client)));
        // One request at most: a second server in the same process shares the cooldown.
        const afterAlice = cooled();
        assert.ok(afterAlice <= 1, "alice's second call is answered from the cooldown");
        // The tool's request to `/cooled` carries no credential of its caller: the upstream
        // limits the server, so bob is held by the same cooldown (it follows the upstream's
        // credential, not the MCP caller).
        for (const client of [bob, bob]) assert.ok(parseRateLimitedResult(await call(client)));
        assert.equal(cooled(), afterAlice, "bob's calls are answered from the server's cooldown too");
        say(`${tool}: one cooldown for the server's upstream limit (4 calls, ${afterAlice} upstream request)`);
      } finally {
        await bob.close();
      }
    }
  } finally {
    await alice.close();
  }
}
