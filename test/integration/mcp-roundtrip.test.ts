import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createSearchServer,
  type RunningServer,
  startSearchHttpServer,
} from "../../examples/search-server.js";
import {
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  rateLimitedResult,
} from "../../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "../../src/testing/node.js";

// A frozen clock for the upstream makes its Retry-After exactly the window: 60 seconds.
const FROZEN = () => Date.parse("2026-11-29T12:00:00Z");
const LIMIT = 2;

const expectedResult = {
  content: [
    {
      type: "text",
      text: 'Rate limited by search_rate_limit. Retry after 60 seconds. The upstream said: "This endpoint has been requested too many times. Try again later."',
    },
  ],
  structuredContent: {
    error: {
      type: "rate_limited",
      retry_after_seconds: 60,
      limit: "search_rate_limit",
      message: "This endpoint has been requested too many times. Try again later.",
    },
  },
  isError: true,
};

let upstream: FakeUpstream | undefined;
let http: RunningServer | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await http?.close();
  await upstream?.close();
  http = undefined;
  upstream = undefined;
});

async function startUpstream(throttleHeaders?: Record<string, string>) {
  upstream = await startFakeUpstream({
    limits: { "/search": { limit: LIMIT, windowMs: 60_000 } },
    now: FROZEN,
    ...(throttleHeaders ? { throttleHeaders } : {}),
  });
  return upstream;
}

async function inMemoryClient(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

/** Calls a tool until the upstream's limit is used up; returns the first call past it. */
async function callPastLimit(client: Client, name: string) {
  for (let call = 0; call < LIMIT; call += 1) {
    const ok = await client.callTool({ name, arguments: { query: "q" } });
    expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
  }
  return client.callTool({ name, arguments: { query: "q" } });
}

describe("a real McpServer and Client in memory (SDK 1.x)", () => {
  it("delivers design §2 exactly, after listTools, for a tool without an outputSchema", async () => {
    const { url } = await startUpstream();
    const client = await inMemoryClient(createSearchServer({ upstreamUrl: url }));
    await client.listTools();
    expect(await callPastLimit(client, "search")).toStrictEqual(expectedResult);
  });

  it("does not make the 1.x client throw for a tool WITH an outputSchema; the error is in _meta", async () => {
    const { url } = await startUpstream();
    const client = await inMemoryClient(createSearchServer({ upstreamUrl: url }));
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "search_structured")?.outputSchema).toBeDefined();
    const result = await callPastLimit(client, "search_structured");
    expect(result).toStrictEqual({
      content: expectedResult.content,
      _meta: { [RATE_LIMITED_META_KEY]: expectedResult.structuredContent.error },
      isError: true,
    });
    expect(parseRateLimitedResult(result)).toStrictEqual(expectedResult.structuredContent.error);
  });

  it("keeps structuredContent.error for a tool whose outputSchema was widened, and the client accepts it", async () => {
    const { url } = await startUpstream();
    const client = await inMemoryClient(createSearchServer({ upstreamUrl: url }));
    await client.listTools();
    expect(await callPastLimit(client, "search_widened")).toStrictEqual(expectedResult);
  });

  it("control: without the _meta placement the 1.x client does throw -32602 for such a tool", async () => {
    const server = new McpServer({ name: "control", version: "1.0.0" });
    server.registerTool("strict", { outputSchema: { hits: z.array(z.string()) } }, async () =>
      rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 60 }),
    );
    const client = await inMemoryClient(server);
    await client.listTools();
    await expect(client.callTool({ name: "strict", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("the proposal's verification: past a low search limit, the delay is in structuredContent, not only prose", async () => {
    const { url } = await startUpstream();
    const client = await inMemoryClient(createSearchServer({ upstreamUrl: url }));
    const result = await callPastLimit(client, "search");
    expect(result.structuredContent).toMatchObject({
      error: { type: "rate_limited", retry_after_seconds: 60 },
    });
    expect(upstream?.requests.get("/search")).toBe(LIMIT + 1);
  });

  it("lets no credential, query string or cookie of the upstream call reach the result", async () => {
    const { url } = await startUpstream({ "set-cookie": "session=COOKIE_SECRET_77; HttpOnly" });
    const client = await inMemoryClient(
      createSearchServer({
        upstreamUrl: url,
        upstreamHeaders: { authorization: "Bearer TOKEN_SECRET_55" },
        apiKey: "KEY_SECRET_66",
      }),
    );
    const result = await callPastLimit(client, "search");
    expect(upstream?.lastRequestHeaders?.authorization).toBe("Bearer TOKEN_SECRET_55");
    expect(result).toStrictEqual(expectedResult);
    const everything = JSON.stringify(result);
    for (const secret of [
      "TOKEN_SECRET_55",
      "KEY_SECRET_66",
      "COOKIE_SECRET_77",
      "api_key",
      "127.0.0.1",
    ]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe("a real McpServer over Streamable HTTP on 127.0.0.1 (SDK 1.x)", () => {
  interface Seen {
    method: string | undefined;
    status: number;
    headers: Headers;
  }

  async function httpClient(seen: Seen[]): Promise<Client> {
    if (http === undefined) throw new Error("start the server first");
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body =
        typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : {};
      seen.push({ method: body.method, status: response.status, headers: response.headers });
      return response;
    };
    const client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { fetch: recording }),
    );
    clients.push(client);
    return client;
  }

  it("answers 200 with design §2, and no upstream rate-limit header reaches the outer response", async () => {
    const { url } = await startUpstream({ "set-cookie": "session=COOKIE_SECRET_77" });
    http = await startSearchHttpServer({ upstreamUrl: url });
    const seen: Seen[] = [];
    const client = await httpClient(seen);
    await client.listTools();
    expect(await callPastLimit(client, "search")).toStrictEqual(expectedResult);

    const calls = seen.filter((entry) => entry.method === "tools/call");
    expect(calls).toHaveLength(LIMIT + 1);
    for (const { status, headers } of calls) {
      expect(status).toBe(200);
      const names = [...headers.keys()];
      expect(
        names.filter((name) => /^(retry-after|ratelimit|x-ratelimit|set-cookie)/i.test(name)),
      ).toStrictEqual([]);
    }
  });

  it("does not make the 1.x client throw for a tool with an outputSchema over HTTP either", async () => {
    const { url } = await startUpstream();
    http = await startSearchHttpServer({ upstreamUrl: url });
    const client = await httpClient([]);
    await client.listTools();
    const result = await callPastLimit(client, "search_structured");
    expect(parseRateLimitedResult(result)).toStrictEqual(expectedResult.structuredContent.error);
    expect(result.content).toStrictEqual(expectedResult.content);
  });
});
