// An agent host that honours throttles (mcp-upstream-throttle/client): an agent loop with a
// scripted model (no network, no LLM) calls the MCP server's tools through throttleAwareClient.
// A short throttle is waited out by the host and never reaches the model; a long one reaches
// the model at once, which decides what to do; a second call to that limit is answered by the
// host's cooldown without a round trip.
//
// `npx tsx examples/host/agent-loop.ts` runs it on its own; `npm run demo` runs it last.

import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readThrottle, type ThrottleEvent, throttleAwareClient } from "../../src/client/index.js";
import { startFakeUpstream } from "../../src/testing/node.js";
import { startSearchHttpServer } from "../search-server.js";

type ToolCall = { name: string; arguments: { query: string } };
type Seen = { call: ToolCall; result: CallToolResult };

/** The model: what it does next, given what it has seen. Scripted, so the demo is the same every time. */
function scriptedModel(seen: readonly Seen[]): ToolCall | { answer: string } {
  const plan: ToolCall[] = [
    { name: "semantic_search", arguments: { query: "retry-after" } },
    { name: "semantic_search", arguments: { query: "jitter" } },
    { name: "semantic_search", arguments: { query: "cooldowns" } },
    { name: "search", arguments: { query: "backoff" } },
    // A naive second try of a throttled tool: the host answers it without asking the server.
    { name: "search", arguments: { query: "exponential backoff" } },
  ];
  const next = plan[seen.length];
  if (next !== undefined) return next;
  const throttled = seen.map(({ result }) => readThrottle(result)).find((throttle) => throttle);
  if (throttled?.retryAfterMs === undefined) return { answer: "Here is what I found." };
  const seconds = Math.ceil(throttled.retryAfterMs / 1000);
  return {
    answer: `${throttled.limit} is rate limited for ${seconds} s, longer than this turn can wait; I answer from the semantic results.`,
  };
}

/** Runs the agent loop against the MCP server at `mcpUrl`; returns the lines to print. */
export async function runHostDemo(mcpUrl: string): Promise<string[]> {
  const lines = ["Host demo: an agent loop with a scripted model, through throttleAwareClient"];
  const onEvent = (event: ThrottleEvent) => {
    if (event.type === "retry") {
      lines.push(
        `  host: ${event.limit} throttled the call; waited ${(event.waitMs / 1000).toFixed(1)} s and sent it again (the model never saw it)`,
      );
    } else if (event.type === "cooldown-hit") {
      lines.push(
        `  host: answered from the cooldown, no request sent (${event.limit}, ${Math.ceil(event.retryAfterMs / 1000)} s left)`,
      );
    }
  };
  const client = new Client({ name: "host-demo", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  // Waits of up to 5 s are the host's business; anything longer is the model's.
  const mcp = throttleAwareClient(client, { maxWaitMs: 5000, onEvent });
  try {
    const seen: Seen[] = [];
    for (;;) {
      const turn = scriptedModel(seen);
      if ("answer" in turn) {
        lines.push(`model: ${turn.answer}`);
        return lines;
      }
      lines.push(`model → ${turn.name} ${JSON.stringify(turn.arguments)}`);
      const result = (await mcp.callTool(turn)) as CallToolResult;
      const text = result.content
        .map((part) => (part.type === "text" ? part.text.replaceAll("\n", " | ") : ""))
        .join(" | ");
      lines.push(`model ← ${turn.name}${result.isError ? " (isError)" : ""}: ${text}`);
      seen.push({ call: turn, result });
    }
  } finally {
    await client.close();
  }
}

/** On its own: the demo's upstream (search spent for a minute, semantic search 2 a second). */
export async function runStandalone(): Promise<string[]> {
  const upstream = await startFakeUpstream({
    limits: {
      "/search": { limit: 0, windowMs: 60_000 },
      "/semantic": { limit: 2, windowMs: 1000 },
    },
  });
  const mcp = await startSearchHttpServer({ upstreamUrl: upstream.url });
  try {
    return await runHostDemo(mcp.url);
  } finally {
    await mcp.close();
    await upstream.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runStandalone().then(
    (lines) => {
      console.log(lines.join("\n"));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
