import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import * as z3 from "zod/v3";
import { throttledTool } from "../../src/index.js";
import { widenOutputShape } from "../../src/zod.js";

describe("throttledTool types", () => {
  it("types the callback from the config's input shape for the 1.x registerTool, zod 4 and 3", () => {
    const server = new McpServer({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool(
        { description: "d", inputSchema: { query: z.string(), n: z.number().optional() } },
        async ({ query, n }, { signal }) => {
          expectTypeOf(query).toEqualTypeOf<string>();
          expectTypeOf(n).toEqualTypeOf<number | undefined>();
          expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
          // no `as const`: the content type keeps its literal
          return { content: [{ type: "text", text: query }] };
        },
      ),
    );
    server.registerTool(
      "search_v3",
      ...throttledTool({ inputSchema: { query: z3.string() } }, async ({ query }) => {
        expectTypeOf(query).toEqualTypeOf<string>();
        return { content: [] };
      }),
    );
  });

  // The README's quick start under exactOptionalPropertyTypes (this repo's tsconfig): an
  // optional `signal` would be `AbortSignal | undefined`, which RequestInit's `signal` refuses.
  it("hands the callback a signal that fetch takes as it is, on the 1.x and the 2.x McpServer", () => {
    const server = new McpServer({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool({ inputSchema: { query: z.string() } }, async ({ query }, { signal }) => {
        const response = await fetch(`http://127.0.0.1/?q=${query}`, { signal });
        return { content: [{ type: "text", text: await response.text() }] };
      }),
    );
    const serverV2 = new McpServerV2({ name: "t", version: "1.0.0" });
    serverV2.registerTool(
      "search",
      ...throttledTool(
        { inputSchema: z.object({ query: z.string() }) },
        async ({ query }, { signal }) => {
          const response = await fetch(`http://127.0.0.1/?q=${query}`, { signal });
          return { content: [{ type: "text", text: await response.text() }] };
        },
      ),
    );
  });

  it("takes a callback without arguments for a tool without an input schema", () => {
    const server = new McpServer({ name: "t", version: "1.0.0" });
    server.registerTool(
      "ping",
      ...throttledTool({ outputSchema: widenOutputShape({ ok: z.boolean() }) }, async () => ({
        content: [],
        structuredContent: { ok: true },
      })),
    );
  });

  it("lets the extra be annotated with the SDK's own type", () => {
    const server = new McpServer({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool(
        { inputSchema: { q: z.string() } },
        async ({ q }, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
          expectTypeOf(extra.requestId).toEqualTypeOf<string | number>();
          return { content: [{ type: "text", text: q }] };
        },
      ),
    );
  });

  it("types the callback from the config's input schema for the 2.x registerTool", () => {
    const server = new McpServerV2({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool(
        { inputSchema: z.object({ query: z.string() }), outputSchema: z.object({ n: z.number() }) },
        async ({ query }, ctx) => {
          expectTypeOf(query).toEqualTypeOf<string>();
          expectTypeOf(ctx.mcpReq?.signal).toEqualTypeOf<AbortSignal | undefined>();
          return { content: [], structuredContent: { n: query.length } };
        },
      ),
    );
  });

  it("rejects a callback whose arguments do not fit the input schema, and bad options", () => {
    // @ts-expect-error -- `q` is a string, not a number
    throttledTool({ inputSchema: { q: z.string() } }, async (_args: { q: number }) => ({
      content: [],
    }));
    // @ts-expect-error -- the output schema is declared in the config, not in the options
    throttledTool({}, async () => ({ content: [] }), { outputSchema: {} });
  });
});
