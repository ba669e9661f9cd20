// npm run demo: a real upstream, a real MCP server, a real client, all on 127.0.0.1.
// The client calls `search` until the upstream throttles it, and prints what the model gets.

import { subscribe } from "node:diagnostics_channel";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { EVENT_CHANNELS, parseRateLimitedResult, type ThrottleEvent } from "../src/index.js";
import { startFakeUpstream } from "../src/testing/node.js";
import { runHostDemo } from "./host/agent-loop.js";
import { startSearchHttpServer } from "./search-server.js";

const SEARCH_LIMIT = 3;

/** Every wrapper's events, server and host side, as an operator would collect them. */
const events: ThrottleEvent[] = [];
for (const name of Object.values(EVENT_CHANNELS)) {
  subscribe(name, (event) => events.push(event as ThrottleEvent));
}

/** One line: how many of each event, and which limits throttled. */
function eventSummary(): string {
  const count = (type: ThrottleEvent["type"]) => events.filter((e) => e.type === type).length;
  const limits = new Map<string, number>();
  for (const event of events) {
    if (event.type === "throttle" && event.limit !== undefined)
      limits.set(event.limit, (limits.get(event.limit) ?? 0) + 1);
  }
  const byLimit = [...limits].map(([limit, n]) => `${limit} ×${n}`).join(", ");
  return `events (diagnostics channels): ${count("throttle")} throttle (${byLimit}), ${count("cooldown-hit")} cooldown-hit, ${count("retry")} retry, ${count("store-error")} store-error`;
}

async function main(): Promise<void> {
  const upstream = await startFakeUpstream({
    limits: {
      "/search": { limit: SEARCH_LIMIT, windowMs: 60_000 },
      // For the host demo: a short throttle the host waits out.
      "/semantic": { limit: 2, windowMs: 1000 },
    },
  });
  const mcp = await startSearchHttpServer({ upstreamUrl: upstream.url });
  const client = new Client({ name: "demo-client", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
    const { tools } = await client.listTools();
    console.log(`upstream search API: ${upstream.url} (${SEARCH_LIMIT} requests per minute)`);
    console.log(
      `MCP server:          ${mcp.url} (tools: ${tools.map((tool) => tool.name).join(", ")})\n`,
    );

    for (let call = 1; call <= SEARCH_LIMIT + 1; call += 1) {
      const result = (await client.callTool({
        name: "search",
        arguments: { query: "rate limits" },
      })) as CallToolResult;
      const throttled = parseRateLimitedResult(result);
      if (throttled === undefined) {
        console.log(`call ${call}: ok`);
        continue;
      }
      console.log(
        `call ${call}: throttled by the upstream. The client received this tool result:\n`,
      );
      console.log(JSON.stringify(result, null, 2));
      console.log(
        `\nAn agent can branch on error.type === "rate_limited" and wait ${throttled.retry_after_seconds} s before retrying.`,
      );
      await showAggregates(client);
      console.log(`\n${(await runHostDemo(mcp.url)).join("\n")}`);
      console.log(`\n${eventSummary()}`);
      return;
    }
    throw new Error("the upstream never throttled: the demo is broken");
  } finally {
    await client.close();
    await mcp.close();
    await upstream.close();
  }
}

/** The aggregated tools pass the same throttle through, unflattened. */
async function showAggregates(client: Client): Promise<void> {
  console.log("\nThe aggregated tools pass it through unflattened:");
  const calls = [
    { name: "search_service", arguments: { query: "rate limits", mode: "keyword" } },
    { name: "search_service", arguments: { query: "rate limits", mode: "semantic" } },
    { name: "search_everywhere", arguments: { query: "rate limits" } },
  ];
  for (const call of calls) {
    const result = (await client.callTool(call)) as CallToolResult;
    const throttled = parseRateLimitedResult(result);
    const first = result.content[0];
    const summary = throttled
      ? `rate_limited: ${first?.type === "text" ? first.text : ""}`
      : `ok (decorated with ${JSON.stringify(result._meta ?? {})})`;
    console.log(`  ${call.name} ${JSON.stringify(call.arguments)} → ${summary}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
