import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { FastMCP } from "fastmcp";
import { McpServer as McpLite } from "mcp-lite";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type RateLimitedToolResult,
  throttledFetch,
  withUpstreamThrottle,
} from "../../src/index.js";

describe("withUpstreamThrottle types", () => {
  it("keeps the handler's argument types", () => {
    const wrapped = withUpstreamThrottle(
      async (args: { q: string }, extra: { signal: AbortSignal }) => ({
        content: [{ type: "text" as const, text: args.q }],
        extra,
      }),
    );
    expectTypeOf(wrapped).parameters.toEqualTypeOf<[{ q: string }, { signal: AbortSignal }]>();
    expectTypeOf<Awaited<ReturnType<typeof wrapped>>>().toExtend<
      { content: unknown } | RateLimitedToolResult
    >();
    // @ts-expect-error -- the argument type is kept: a number is not { q: string }
    wrapped({ q: 1 }, { signal: new AbortController().signal });
  });

  it("is accepted by the 1.x SDK's registerTool, with the callback's arguments inferred", () => {
    const server = new McpServer({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: { q: z.string() } },
      withUpstreamThrottle(async ({ q }, extra) => {
        expectTypeOf(q).toEqualTypeOf<string>();
        expectTypeOf(extra.signal).toEqualTypeOf<AbortSignal>();
        return { content: [{ type: "text", text: q }] };
      }),
    );
    server.registerTool(
      "ping",
      {},
      withUpstreamThrottle(async (extra) => {
        expectTypeOf(extra.requestId).toEqualTypeOf<string | number>();
        return { content: [] };
      }),
    );
  });

  it("resolves, called directly, to a type that keeps isError and structuredContent", async () => {
    const wrapped = withUpstreamThrottle(async (args: { q: string }) => ({
      content: [{ type: "text" as const, text: args.q }],
    }));
    const result = await wrapped({ q: "mcp" });
    expectTypeOf(result.isError).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(result.structuredContent).toExtend<Record<string, unknown> | undefined>();
    expectTypeOf(result.content[0]?.text).toExtend<string | undefined>();
  });

  it("types the arguments of the 2.x SDK's registerTool, with and without an input schema", () => {
    const server = new McpServerV2({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: z.object({ q: z.string() }) },
      withUpstreamThrottle(async ({ q }, ctx) => {
        expectTypeOf(q).toEqualTypeOf<string>();
        expectTypeOf(ctx.mcpReq.signal).toEqualTypeOf<AbortSignal>();
        return { content: [{ type: "text", text: q }] };
      }),
    );
    server.registerTool(
      "ping",
      {},
      withUpstreamThrottle(async (ctx) => {
        expectTypeOf(ctx.mcpReq.signal).toEqualTypeOf<AbortSignal>();
        return { content: [] };
      }),
    );
  });

  // Issue 19: one-object tool APIs type `execute` / `handler` from a sibling generic; the
  // unannotated wrapped callback's arguments were `never` (TS2322) before the second signature.
  it("types an unannotated callback in fastmcp's addTool", () => {
    const server = new FastMCP({ name: "t", version: "1.0.0" });
    server.addTool({
      name: "search",
      parameters: z.object({ query: z.string(), limit: z.number().optional() }),
      execute: withUpstreamThrottle(async ({ query, limit }, context) => {
        expectTypeOf(query).toEqualTypeOf<string>();
        expectTypeOf(limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(context.sessionId).toEqualTypeOf<string | undefined>();
        return { content: [{ type: "text" as const, text: query }] };
      }),
    });
  });

  it("types an unannotated callback in mcp-lite's tool", () => {
    const server = new McpLite({ name: "t", version: "1.0.0" });
    server.tool("search", {
      inputSchema: z.object({ query: z.string() }),
      handler: withUpstreamThrottle(async ({ query }, context) => {
        expectTypeOf(query).toEqualTypeOf<string>();
        expectTypeOf(context.requestId).not.toBeNever();
        return { content: [{ type: "text" as const, text: query }] };
      }),
    });
  });

  // Mastra's createTool declares `execute?:` (test/consumers/fw-mastra compiles the real one):
  // without exactOptionalPropertyTypes the contextual type is `F | undefined`, whose arguments
  // must not become `never`.
  it("types the callback's arguments from an optional callback field of a one-object API", () => {
    type Execute = (
      input: { context: { query: string } },
      options?: { toolCallId: string },
    ) => Promise<unknown>;
    const createTool = (tool: { id: string; execute?: Execute | undefined }) => tool;
    createTool({
      id: "search",
      execute: withUpstreamThrottle(async ({ context }, options) => {
        expectTypeOf(context.query).toEqualTypeOf<string>();
        expectTypeOf(options?.toolCallId).toEqualTypeOf<string | undefined>();
        return { content: [{ type: "text" as const, text: context.query }] };
      }),
    });
    createTool({
      id: "typo",
      // @ts-expect-error -- the arguments are typed, so a typo does not compile
      execute: withUpstreamThrottle(async ({ context }) => context.qurey),
    });
  });

  it("returns a result the SDK's CallToolResult type accepts", () => {
    expectTypeOf<RateLimitedToolResult>().toExtend<CallToolResult>();
  });

  it("fails to compile with bad options", () => {
    // @ts-expect-error -- limit is a string
    withUpstreamThrottle(async () => ({ content: [] }), { limit: 5 });
    // @ts-expect-error -- unannotated arguments outside a tool API are never, not any
    withUpstreamThrottle(async (args) => args.q);
    // @ts-expect-error -- no such option
    throttledFetch({ retries: 3 });
    // @ts-expect-error -- the callback is required
    withUpstreamThrottle(undefined);
    expectTypeOf(throttledFetch()).toEqualTypeOf<typeof fetch>();
  });
});
