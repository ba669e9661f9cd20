// The MCP server the host tests call: real tools whose upstream (a real rate-limited HTTP API)
// throttles them, built with the core as a tool author would, and a gate in front of the
// protocol that makes the server itself refuse `tools/call` (the outer layer).

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { throttledFetch, withUpstreamThrottle } from "../../../src/index.js";

/** The tools, each on its own upstream path and limit (see `UPSTREAM_LIMITS`). */
export const TOOLS = {
  search: { path: "/search", limit: "search_rate_limit" },
  lookup: { path: "/lookup", limit: "lookup_rate_limit" },
  archive: { path: "/archive", limit: "archive_rate_limit" },
  status: { path: "/status", limit: "status_rate_limit" },
} as const;

/**
 * search: one call a second, so the second call is throttled for a second (short);
 * lookup: never, for a minute (long); archive: never, a second at a time; status: unlimited,
 * and the one tool the server's own limit (the gate) refuses.
 */
export const UPSTREAM_LIMITS = {
  "/search": { limit: 1, windowMs: 1000 },
  "/lookup": { limit: 0, windowMs: 60_000 },
  "/archive": { limit: 0, windowMs: 1000 },
};

/** The tool the server's own limit applies to. */
export const GUARDED_TOOL = "status";

export type ToolName = keyof typeof TOOLS;

export function createToolServer(upstreamUrl: string): McpServer {
  const server = new McpServer({ name: "host-tests", version: "1.0.0" });
  for (const [name, { path, limit }] of Object.entries(TOOLS)) {
    const api = throttledFetch({ limit });
    server.registerTool(
      name,
      { description: `Calls ${path}.`, inputSchema: { query: z.string() } },
      withUpstreamThrottle(async ({ query }, extra) => {
        const response = await api(`${upstreamUrl}${path}?q=${encodeURIComponent(query)}`, {
          signal: extra.signal,
        });
        const { hits } = (await response.json()) as { hits: string[] };
        return { content: [{ type: "text", text: hits.join("\n") }] };
      }),
    );
  }
  return server;
}

/** How the server refuses one `tools/call` before any tool runs. */
export interface Refusal {
  /** 429: an HTTP 429 whose body is the JSON-RPC error (SEP-3304 RL-2); 200: in band. @default 200 */
  status?: 200 | 429;
  /** @default -32023 */
  code?: number;
  /** `error.data`, e.g. `{ retryAfterMs: 300 }`. */
  data?: Record<string, unknown>;
  /** A raw HTTP body instead of the JSON-RPC error (429 only). */
  body?: string;
}

/**
 * Refuses the next calls of `GUARDED_TOOL`, in order, before any tool runs; counts every
 * `tools/call` that reaches the server.
 */
export class ServerGate {
  #plan: Refusal[] = [];
  toolCalls = 0;

  refuse(...refusals: Refusal[]): void {
    this.#plan.push(...refusals);
  }

  /** The refusal for this message, if it is a `tools/call` and one is planned. */
  take(message: unknown): Refusal | undefined {
    const name = toolCallName(message);
    if (name === undefined) return undefined;
    this.toolCalls += 1;
    return name === GUARDED_TOOL ? this.#plan.shift() : undefined;
  }
}

function toolCallName(message: unknown): string | undefined {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
}

export function refusalMessage(id: string | number | null, refusal: Refusal): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: refusal.code ?? -32023, message: "Rate limited", data: refusal.data },
  } as unknown as JSONRPCMessage;
}

/**
 * In-band refusals: `decide` picks the refusal of each incoming message, and the JSON-RPC error
 * goes back over the server's own transport instead of the message reaching the server.
 */
export function refuseInBand(
  transport: Transport,
  decide: (message: JSONRPCMessage) => Refusal | undefined,
): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = decide(message);
    if (refusal === undefined) {
      deliver?.(message, extra);
      return;
    }
    const { id } = message as { id: string | number };
    void transport.send(refusalMessage(id, refusal));
  };
}
