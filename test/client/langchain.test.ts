// The LangChain path: @langchain/mcp-adapters 1.1 turns a throttled result into a ToolException
// holding the text (structured content dropped), and turns any error thrown below it into a
// ToolException holding only `String(error)`. readThrottle reads the first; for the outer layer,
// pass loadMcpTools a throttleAwareClient, so throttles are honoured below the adapter.

import { loadMcpTools, MultiServerMCPClient } from "@langchain/mcp-adapters";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readThrottle, type ThrottleEvent, throttleAwareClient } from "../../src/client/index.js";
import { connectClient, type SdkClient } from "./helpers/clients.js";
import { useServers } from "./helpers/use-servers.js";

type LangChainTool = Awaited<ReturnType<typeof loadMcpTools>>[number];

const servers = useServers();
let multi: MultiServerMCPClient;
let bare: LangChainTool[];
let client: SdkClient;
let events: ThrottleEvent[];

beforeAll(async () => {
  multi = new MultiServerMCPClient({
    mcpServers: { docs: { transport: "http", url: servers.host.url } },
  });
  bare = await multi.getTools();
  client = await connectClient("sdk-1.x", "streamable-http", {
    url: servers.host.url,
    upstreamUrl: servers.upstream.url,
  });
});

afterAll(async () => {
  await multi.close();
  await client.close();
});

beforeEach(() => {
  events = [];
});

const find = (tools: LangChainTool[], name: string) => {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};
const invoke = (tools: LangChainTool[], name: string) =>
  find(tools, name).invoke({ query: "rate limits" });
const honouredTools = () =>
  loadMcpTools(
    "docs",
    throttleAwareClient(client, { onEvent: (event) => events.push(event) }) as never,
  );

describe("@langchain/mcp-adapters 1.1 (MultiServerMCPClient, no wrapper)", () => {
  it("throws a ToolException holding the exact text, which readThrottle reads", async () => {
    const error = await invoke(bare, "lookup").catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      name: "ToolException",
      message:
        "MCP tool 'lookup' on server 'docs' returned an error: Rate limited by lookup_rate_limit. Retry after 60 seconds. The upstream said: \"This endpoint has been requested too many times. Try again later.\"",
    });
    expect(readThrottle(error)).toStrictEqual({
      layer: "tool",
      limit: "lookup_rate_limit",
      retryAfterMs: 60_000,
      source: "text",
    });
  });

  it("keeps only String(error) of the server's own -32023: its data.retryAfterMs is lost", async () => {
    servers.host.gate.refuse({ data: { retryAfterMs: 200 } });
    const error = await invoke(bare, "status").catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      name: "ToolException",
      message: "Error calling tool status: McpError: MCP error -32023: Rate limited",
    });
    expect(readThrottle(error)).toBeUndefined();
  });
});

describe("loadMcpTools over a throttleAwareClient", () => {
  it("waits out a short tool-layer throttle: the tool returns the retry's success", async () => {
    const tools = await honouredTools();
    await invoke(tools, "search");
    await expect(invoke(tools, "search")).resolves.toContain("first result");
    expect(servers.upstream.requests.get("/search")).toBe(3);
  });

  it("gives a long one to the agent at once, then answers the next call from the cooldown", async () => {
    const tools = await honouredTools();
    const first = await invoke(tools, "lookup").catch((reason: unknown) => reason);
    const second = await invoke(tools, "lookup").catch((reason: unknown) => reason);
    expect(readThrottle(first)).toMatchObject({ layer: "tool", retryAfterMs: 60_000 });
    expect(readThrottle(second)).toMatchObject({ layer: "tool", limit: "lookup_rate_limit" });
    expect(servers.upstream.requests.get("/lookup")).toBe(1);
    expect(events.map((event) => event.type)).toStrictEqual(["throttle", "cooldown-hit"]);
  });

  it.each([
    ["the server's in-band -32023", 200],
    ["an HTTP 429 with the SEP-3304 body", 429],
  ] as const)("waits out %s below the adapter", async (_case, status) => {
    const tools = await honouredTools();
    servers.host.gate.refuse({ status, data: { retryAfterMs: 200 } });
    await expect(invoke(tools, "status")).resolves.toContain("first result");
    expect(events[0]).toMatchObject({ type: "throttle", limit: "mcp-server", retryAfterMs: 200 });
  });
});
