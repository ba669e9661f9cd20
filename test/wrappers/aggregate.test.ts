import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  aggregateTool,
  fanOutTool,
  parseRateLimitedResult,
  rateLimitedResult,
  throttledFetch,
  withUpstreamThrottle,
} from "../../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "../../src/testing/node.js";
import { eventually } from "../helpers/http-server.js";

const FROZEN = Date.parse("2026-11-29T12:00:00Z");
let upstream: FakeUpstream | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await upstream?.close();
  upstream = undefined;
});

async function connect(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe("aggregateTool: route to one sub-tool", () => {
  async function searchService() {
    upstream = await startFakeUpstream({
      limits: {
        "/search": { limit: 0, windowMs: 60_000 },
        "/semantic": { limit: 10, windowMs: 60_000 },
      },
      now: () => FROZEN,
    });
    const base = upstream.url;
    const api = throttledFetch();
    const search = withUpstreamThrottle(
      async ({ query }: { query: string; mode: "keyword" | "semantic" }) => {
        const response = await api(`${base}/search?q=${query}`);
        return {
          content: [{ type: "text" as const, text: await response.text() }],
        } as CallToolResult;
      },
      { limit: "search_rate_limit" },
    );
    const semantic = withUpstreamThrottle(
      async ({ query }: { query: string; mode: "keyword" | "semantic" }) => {
        const response = await api(`${base}/semantic?q=${query}`);
        return {
          content: [{ type: "text" as const, text: await response.text() }],
        } as CallToolResult;
      },
      { limit: "semantic_search_rate_limit" },
    );
    const decorated: string[] = [];
    const server = new McpServer({ name: "agg", version: "1.0.0" });
    server.registerTool(
      "search_service",
      { inputSchema: { query: z.string(), mode: z.enum(["keyword", "semantic"]) } },
      aggregateTool({
        tools: { search, semantic_search: semantic },
        select: ({ mode }) => (mode === "keyword" ? "search" : "semantic_search"),
        decorate: (result, { tool }) => {
          decorated.push(tool);
          return { ...result, _meta: { operation: tool } };
        },
      }),
    );
    return { client: await connect(server), decorated, search };
  }

  it("returns a throttled sub-result to the client deep-equal to what the sub-tool returned, undecorated", async () => {
    const { client, decorated, search } = await searchService();
    const direct = await search({ query: "q", mode: "keyword" });
    const viaAggregate = await client.callTool({
      name: "search_service",
      arguments: { query: "q", mode: "keyword" },
    });
    expect(viaAggregate).toStrictEqual(direct);
    expect(parseRateLimitedResult(viaAggregate)).toMatchObject({
      limit: "search_rate_limit",
      retry_after_seconds: 60,
    });
    expect(decorated).toStrictEqual([]);
  });

  it("passes a throttled sub-result through an aggregate without decoration too (the other shape)", async () => {
    const throttled = rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 60 });
    const server = new McpServer({ name: "plain-agg", version: "1.0.0" });
    server.registerTool(
      "pass_through",
      { inputSchema: { query: z.string() } },
      aggregateTool({
        tools: { search: async () => throttled as CallToolResult },
        select: () => "search" as const,
      }),
    );
    const client = await connect(server);
    expect(
      await client.callTool({ name: "pass_through", arguments: { query: "q" } }),
    ).toStrictEqual(throttled);
  });

  it("decorates a successful sub-result", async () => {
    const { client, decorated } = await searchService();
    const result = await client.callTool({
      name: "search_service",
      arguments: { query: "q", mode: "semantic" },
    });
    expect(result.isError).toBeFalsy();
    expect(result._meta).toStrictEqual({ operation: "semantic_search" });
    expect(decorated).toStrictEqual(["semantic_search"]);
  });

  it("throws for a sub-tool name that is not there, and rejects bad options", async () => {
    const tool = aggregateTool({
      tools: { a: async () => ({ content: [] }) },
      select: () => "b" as "a",
    });
    await expect(tool(undefined, undefined)).rejects.toThrow(
      '`select` chose "b", which is not in `tools`',
    );
    expect(() => aggregateTool({ tools: {}, select: "a" as never })).toThrow(/`select`/);
  });

  it("takes its argument types from select, and checks the sub-tools against them", () => {
    const tool = aggregateTool({
      tools: {
        a: async (args: { q: string }, _extra: { id: number }) => ({ content: [], q: args.q }),
        b: async (args: { q: string }) => ({ content: [], q: args.q }),
      },
      select: (args: { q: string; mode: "a" | "b" }, extra: { id: number }) => {
        expectTypeOf(extra.id).toEqualTypeOf<number>();
        return args.mode === "a" ? "a" : ("b" as const);
      },
    });
    expectTypeOf(tool).parameters.toEqualTypeOf<[{ q: string; mode: "a" | "b" }, { id: number }]>();
    aggregateTool({
      // @ts-expect-error -- a sub-tool that needs a field the aggregate does not have
      tools: { a: async (_args: { other: number }) => ({ content: [] }) },
      select: (_args: { q: string }, _extra: unknown) => "a",
    });
  });
});

describe("fanOutTool: several sub-calls at once", () => {
  it("reports the longest of two throttles (10 s and 30 s) with that sub-call's limit, and aborts the rest", async () => {
    upstream = await startFakeUpstream({
      limits: {
        "/github": { limit: 0, windowMs: 10_000 },
        "/slack": { limit: 0, windowMs: 30_000 },
      },
      hang: ["/jira"],
      now: () => FROZEN,
    });
    const base = upstream.url;
    const calls = {
      github: throttledFetch({ limit: "github" }),
      slack: throttledFetch({ limit: "slack" }),
      jira: throttledFetch({ limit: "jira" }),
    };
    const server = new McpServer({ name: "fan", version: "1.0.0" });
    let merged = false;
    server.registerTool(
      "everywhere",
      { inputSchema: { query: z.string() } },
      fanOutTool({
        parts: ({ query }: { query: string }) =>
          Object.fromEntries(
            Object.entries(calls).map(([name, call]) => [
              name,
              async (signal: AbortSignal): Promise<CallToolResult> => {
                const response = await call(`${base}/${name}?q=${query}`, { signal });
                return { content: [{ type: "text", text: await response.text() }] };
              },
            ]),
          ),
        merge: (results) => {
          merged = true;
          return { content: Object.values(results).flatMap((result) => result.content) };
        },
      }),
    );
    const client = await connect(server);
    const result = await client.callTool({ name: "everywhere", arguments: { query: "q" } });
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "slack",
      retry_after_seconds: 30,
    });
    expect(result.content).toStrictEqual([
      {
        type: "text",
        text: 'Rate limited by slack. Retry after 30 seconds. The upstream said: "This endpoint has been requested too many times. Try again later."',
      },
    ]);
    expect(merged).toBe(false);
    expect(await eventually(() => upstream?.closedEarly.get("/jira") === 1)).toBe(true);
  });

  it("merges when every part succeeds", async () => {
    const tool = fanOutTool({
      parts: () => ({
        a: async () => ({ content: [{ type: "text" as const, text: "a" }] }),
        b: async () => ({ content: [{ type: "text" as const, text: "b" }] }),
      }),
      merge: (results) => ({
        content: [...(results.a?.content ?? []), ...(results.b?.content ?? [])],
      }),
    });
    expect(await tool()).toStrictEqual({
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    });
  });

  it("aggregateTool turns a throttle thrown by an unwrapped sub-tool into the result (issue 19)", async () => {
    const { UpstreamRateLimitedError } = await import("../../src/index.js");
    const tool = aggregateTool({
      tools: {
        search: async (): Promise<CallToolResult> => {
          throw new UpstreamRateLimitedError({
            limit: "search",
            status: 429,
            retryAfterMs: 7000,
          });
        },
      },
      select: () => "search" as const,
    });
    expect(parseRateLimitedResult(await tool({}, {}))).toMatchObject({
      limit: "search",
      retry_after_seconds: 7,
    });
  });

  it("aggregateTool rethrows any other error of a sub-tool unchanged", async () => {
    const boom = new Error("boom");
    const tool = aggregateTool({
      tools: {
        search: async (): Promise<CallToolResult> => {
          throw boom;
        },
      },
      select: () => "search" as const,
    });
    await expect(tool({}, {})).rejects.toBe(boom);
  });

  it("counts a thrown UpstreamRateLimitedError as a throttle, and prefers a throttle over a plain failure", async () => {
    const tool = fanOutTool({
      parts: () => ({
        // Typed as the SDK's result: the rate_limited result's content may hold more than text.
        failing: async (): Promise<CallToolResult> => ({
          content: [{ type: "text" as const, text: "boom" }],
          isError: true,
        }),
        throttled: async () => rateLimitedResult({ limit: "x", retryAfterSeconds: 5 }),
      }),
      merge: () => ({ content: [] }),
    });
    expect(parseRateLimitedResult(await tool())?.limit).toBe("x");
  });

  it("returns a plain failure and aborts the rest when no part is throttled", async () => {
    let abortedReason: unknown;
    const tool = fanOutTool({
      parts: () => ({
        failing: async () => ({
          content: [{ type: "text" as const, text: "boom" }],
          isError: true,
        }),
        slow: (signal) =>
          new Promise((_, reject) =>
            signal.addEventListener("abort", () => {
              abortedReason = signal.reason;
              reject(signal.reason);
            }),
          ),
      }),
      merge: () => ({ content: [] }),
    });
    expect(await tool()).toStrictEqual({
      content: [{ type: "text", text: "boom" }],
      isError: true,
    });
    expect(String(abortedReason)).toMatch(/FanOutAbortedError: a part of the fan-out failed/);
  });

  it("aborts every part when the tool call itself is cancelled", async () => {
    const outer = new AbortController();
    const tool = fanOutTool({
      parts: (_extra: { signal: AbortSignal }) => ({
        slow: (signal: AbortSignal) =>
          new Promise<{ content: [] }>((_, reject) =>
            signal.addEventListener("abort", () => reject(signal.reason)),
          ),
      }),
      merge: () => ({ content: [] }),
    });
    const pending = tool({ signal: outer.signal });
    outer.abort(new Error("client cancelled"));
    await expect(pending).rejects.toThrow("client cancelled");
  });
});
