import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type RateLimitedToolResult, throttledFetch, withUpstreamThrottle } from "../src/index.js";

describe("withUpstreamThrottle types", () => {
  it("keeps the handler's argument types", () => {
    const wrapped = withUpstreamThrottle(
      async (args: { q: string }, extra: { signal: AbortSignal }) => ({
        content: [{ type: "text" as const, text: args.q }],
        extra,
      }),
    );
    expectTypeOf(wrapped).parameters.toEqualTypeOf<[{ q: string }, { signal: AbortSignal }]>();
    expectTypeOf(wrapped).returns.resolves.toHaveProperty("content");
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

  it("returns a result the SDK's CallToolResult type accepts", () => {
    expectTypeOf<RateLimitedToolResult>().toExtend<CallToolResult>();
  });

  it("fails to compile with bad options", () => {
    // @ts-expect-error -- limit is a string
    withUpstreamThrottle(async () => ({ content: [] }), { limit: 5 });
    // @ts-expect-error -- no such option
    throttledFetch({ retries: 3 });
    expectTypeOf(throttledFetch()).toEqualTypeOf<typeof fetch>();
  });
});
