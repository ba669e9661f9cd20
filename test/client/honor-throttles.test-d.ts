import type { createMCPClient } from "@ai-sdk/mcp";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCPServerStreamableHttp } from "@openai/agents";
import { describe, expectTypeOf, it } from "vitest";
import {
  type HostThrottle,
  honorThrottles,
  readThrottle,
  throttleAwareClient,
  throttleAwareMcpServer,
  throttleAwareTools,
  throttleAwareTransport,
} from "../../src/client/index.js";

type Params = { name: string; arguments?: Record<string, unknown> };
const callTool = async (params: Params, options?: { signal?: AbortSignal; timeout?: number }) => ({
  content: [{ type: "text" as const, text: params.name }],
  timeout: options?.timeout,
});

describe("client types", () => {
  it("honorThrottles keeps the call signature of callTool", () => {
    expectTypeOf(honorThrottles(callTool)).toEqualTypeOf<
      (
        params: Params,
        options?: { signal?: AbortSignal; timeout?: number },
      ) => ReturnType<typeof callTool>
    >();
  });

  it("gives callKey and signal the call's own arguments", () => {
    honorThrottles(callTool, {
      callKey: (params) => params.name,
      signal: (_params, options) => options?.signal,
    });
    // @ts-expect-error the tool name is a string, not a number
    honorThrottles(callTool, { callKey: (params) => params.name.length });
  });

  it("checks the options' types", () => {
    // @ts-expect-error maxWaitMs is a number of milliseconds
    honorThrottles(callTool, { maxWaitMs: "10s" });
    // @ts-expect-error cooldown is on or off
    honorThrottles(callTool, { cooldown: "per-server" });
  });

  it("throttleAwareClient returns the client's own type, 1.x and 2.x", () => {
    const v1 = new ClientV1({ name: "host", version: "1.0.0" });
    const v2 = new ClientV2({ name: "host", version: "1.0.0" });
    expectTypeOf(throttleAwareClient(v1)).toEqualTypeOf<ClientV1>();
    expectTypeOf(throttleAwareClient(v2)).toEqualTypeOf<ClientV2>();
    // @ts-expect-error not an MCP client
    throttleAwareClient({ listTools: async () => ({}) });
  });

  it("throttleAwareTools returns the AI SDK tool set's own type", () => {
    type Tools = Awaited<ReturnType<Awaited<ReturnType<typeof createMCPClient>>["tools"]>>;
    expectTypeOf(throttleAwareTools({} as Tools)).toEqualTypeOf<Tools>();
  });

  it("throttleAwareClient takes @ai-sdk/mcp's MCPClient and keeps its type", () => {
    type McpClient = Awaited<ReturnType<typeof createMCPClient>>;
    expectTypeOf(throttleAwareClient({} as McpClient)).toEqualTypeOf<McpClient>();
  });

  it("throttleAwareMcpServer and throttleAwareTransport return what they were given", () => {
    const server = new MCPServerStreamableHttp({ url: "http://127.0.0.1:1/mcp" });
    expectTypeOf(throttleAwareMcpServer(server)).toEqualTypeOf<MCPServerStreamableHttp>();
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:1/mcp"));
    expectTypeOf(throttleAwareTransport(transport)).toEqualTypeOf<StreamableHTTPClientTransport>();
    // @ts-expect-error a transport has `send`
    throttleAwareTransport({ start: async () => {} });
    // @ts-expect-error an OpenAI Agents server has `callTool`
    throttleAwareMcpServer({ name: "x" });
  });

  it("readThrottle returns a HostThrottle or undefined", () => {
    expectTypeOf(readThrottle(undefined)).toEqualTypeOf<HostThrottle | undefined>();
  });
});
