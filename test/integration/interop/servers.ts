// The servers of the interop matrix: the same throttled tools on the 1.x SDK, the 2.x server
// package and fastmcp. Every tool calls an upstream that always throttles.

import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { FastMCP, UserError } from "fastmcp";
import { z } from "zod";
import {
  throttledFetch,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../../src/index.js";
import { widenOutputShape } from "../../../src/zod.js";

export const LIMIT = "search_rate_limit";
const hits = { hits: z.array(z.string()) };

async function callUpstream(upstreamUrl: string, signal?: AbortSignal): Promise<string[]> {
  const response = await throttledFetch({ limit: LIMIT })(
    `${upstreamUrl}/search`,
    signal ? { signal } : {},
  );
  return ((await response.json()) as { hits: string[] }).hits;
}

/** The tools every 1.x and 2.x server offers; `array_output` only where a non-object root exists (2.x). */
export const TOOLS_V1 = ["plain", "output_schema", "widened"] as const;
export const TOOLS_V2 = [...TOOLS_V1, "array_output"] as const;

export function createServerV1(upstreamUrl: string): McpServerV1 {
  const server = new McpServerV1({ name: "interop-v1", version: "1.0.0" });
  const input = { query: z.string() };
  server.registerTool(
    "plain",
    { inputSchema: input },
    withUpstreamThrottle(async (_args, extra) => ({
      content: [{ type: "text", text: (await callUpstream(upstreamUrl, extra.signal)).join(", ") }],
    })),
  );
  for (const [name, outputSchema] of [
    ["output_schema", hits],
    ["widened", widenOutputShape(hits)],
  ] as const) {
    server.registerTool(
      name,
      { inputSchema: input, outputSchema },
      withUpstreamThrottle(
        async (_args, extra) => {
          const found = await callUpstream(upstreamUrl, extra.signal);
          return {
            content: [{ type: "text", text: found.join(", ") }],
            structuredContent: { hits: found },
          };
        },
        { outputSchema },
      ),
    );
  }
  return server;
}

export function createServerV2(upstreamUrl: string): McpServerV2 {
  const server = new McpServerV2({ name: "interop-v2", version: "1.0.0" });
  const input = z.object({ query: z.string() });
  server.registerTool(
    "plain",
    { inputSchema: input },
    withUpstreamThrottle(async (_args, ctx) => ({
      content: [
        {
          type: "text" as const,
          text: (await callUpstream(upstreamUrl, ctx.mcpReq.signal)).join(", "),
        },
      ],
    })),
  );
  for (const [name, outputSchema] of [
    ["output_schema", z.object(hits)],
    ["widened", z.object(widenOutputShape(hits))],
  ] as const) {
    server.registerTool(
      name,
      { inputSchema: input, outputSchema },
      withUpstreamThrottle(
        async (_args, ctx) => {
          const found = await callUpstream(upstreamUrl, ctx.mcpReq.signal);
          return {
            content: [{ type: "text" as const, text: found.join(", ") }],
            structuredContent: { hits: found },
          };
        },
        { outputSchema },
      ),
    );
  }
  // An output schema whose root is not an object: the 2.x server wraps such structured content
  // as { result } on the 2025 protocol era, so the error object must not travel there.
  const arrayOutput = z.array(z.string());
  server.registerTool(
    "array_output",
    { inputSchema: input, outputSchema: arrayOutput },
    withUpstreamThrottle(
      async (_args, ctx) => {
        const found = await callUpstream(upstreamUrl, ctx.mcpReq.signal);
        return {
          content: [{ type: "text" as const, text: found.join(", ") }],
          structuredContent: found as never,
        };
      },
      { outputSchema: arrayOutput },
    ),
  );
  return server;
}

export const TOOLS_FASTMCP = ["returned_result", "user_error"] as const;

export function createFastMcp(upstreamUrl: string): FastMCP {
  const server = new FastMCP({ name: "interop-fastmcp", version: "1.0.0" });
  // A returned result: fastmcp passes content, structuredContent, _meta and isError through.
  server.addTool({
    name: "returned_result",
    parameters: z.object({ query: z.string() }),
    execute: withUpstreamThrottle(async () => ({
      content: [{ type: "text" as const, text: (await callUpstream(upstreamUrl)).join(", ") }],
    })),
  });
  // fastmcp's own error path: a UserError's message becomes the text and its extras the
  // structuredContent, so the throttle is rethrown as one carrying the same result.
  server.addTool({
    name: "user_error",
    parameters: z.object({ query: z.string() }),
    execute: async () => {
      try {
        return (await callUpstream(upstreamUrl)).join(", ");
      } catch (error) {
        const throttle = toUpstreamRateLimitedError(error);
        if (throttle === undefined) throw error;
        const result = throttle.toToolResult();
        throw new UserError(result.content[0].text, result.structuredContent);
      }
    },
  });
  return server;
}
