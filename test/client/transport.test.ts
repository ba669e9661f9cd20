// throttleAwareTransport below real clients over Streamable HTTP on 127.0.0.1: the SDK 1.x and
// 2.x `Client` and `@ai-sdk/mcp`. The wait and the cooldown see the whole result; the model gets
// the framework's own shape for the cooldown's answer too. mcp-use's `HttpConnector`
// (`wrapTransport`) runs from the packed package in test/frameworks/mcp-use-1.

import { createMCPClient } from "@ai-sdk/mcp";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeEach, describe, expect, it } from "vitest";
import {
  readThrottle,
  type ThrottleEvent,
  throttleAwareClient,
  throttleAwareTransport,
} from "../../src/client/index.js";
import { useServers } from "./helpers/use-servers.js";

const servers = useServers();
let events: ThrottleEvent[];
const onEvent = (event: ThrottleEvent) => events.push(event);
const count = (type: ThrottleEvent["type"]) => events.filter((event) => event.type === type).length;
const args = { query: "rate limits" };

beforeEach(() => {
  events = [];
});

describe.each([
  ["@modelcontextprotocol/sdk 1.32.2", () => new ClientV1({ name: "t", version: "1" }), HttpV1],
  ["@modelcontextprotocol/client 2.4.0", () => new ClientV2({ name: "t", version: "1" }), HttpV2],
] as const)("throttleAwareTransport under the %s Client", (_name, makeClient, Transport) => {
  const connect = async () => {
    const client = makeClient() as ClientV1;
    await client.connect(
      throttleAwareTransport(new Transport(new URL(servers.host.url)) as never, { onEvent }),
    );
    return client;
  };

  it("waits out a short tool throttle, hands back a long one, and answers the cooldown locally", async () => {
    const client = await connect();
    try {
      await client.callTool({ name: "search", arguments: args });
      const short = await client.callTool({ name: "search", arguments: args });
      expect(readThrottle(short)).toBeUndefined();
      expect(count("retry")).toBe(1);
      const long = await client.callTool({ name: "lookup", arguments: args });
      expect(readThrottle(long)).toMatchObject({
        limit: "lookup_rate_limit",
        source: "structuredContent",
      });
      const before = servers.host.gate.toolCalls;
      const cooled = await client.callTool({ name: "lookup", arguments: args });
      expect(servers.host.gate.toolCalls).toBe(before);
      expect(count("cooldown-hit")).toBe(1);
      expect(cooled).toMatchObject({
        isError: true,
        structuredContent: { error: { limit: "lookup_rate_limit" } },
      });
    } finally {
      await client.close();
    }
  });

  it("answers the server's own limit from the cooldown as a -32023 error, with no request", async () => {
    const client = await connect();
    try {
      servers.host.gate.refuse({ data: { retryAfterMs: 60_000 } });
      const first = await client
        .callTool({ name: "status", arguments: args })
        .catch((e: unknown) => e);
      expect(first).toMatchObject({ code: -32023 });
      const before = servers.host.gate.toolCalls;
      const second = await client
        .callTool({ name: "search", arguments: args })
        .catch((e: unknown) => e);
      expect(servers.host.gate.toolCalls).toBe(before);
      expect(second).toMatchObject({ code: -32023 });
      expect(readThrottle(second)).toMatchObject({ layer: "server" });
    } finally {
      await client.close();
    }
  });

  it("ends a wait when the caller aborts, and the server sees no second call", async () => {
    const client = await connect();
    try {
      servers.host.gate.refuse({ data: { retryAfterMs: 5_000 } });
      const controller = new AbortController();
      const params = { name: "status", arguments: args };
      // 1.x takes (params, resultSchema, options), 2.x (params, options).
      const call =
        client instanceof ClientV1
          ? client.callTool(params, undefined, { signal: controller.signal })
          : (client as unknown as ClientV2).callTool(params, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user stopped")), 200);
      const started = performance.now();
      await expect(call).rejects.toBeDefined();
      expect(performance.now() - started).toBeLessThan(2_000);
      const before = servers.host.gate.toolCalls;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(servers.host.gate.toolCalls).toBe(before);
    } finally {
      await client.close();
    }
  });
});

describe("@ai-sdk/mcp 1.0.102: createMCPClient({ transport: throttleAwareTransport(…) })", () => {
  it("the tools go through the wait and the cooldown below the AI SDK's client", async () => {
    const mcp = await createMCPClient({
      // The SDK's transport, as the AI SDK's docs pass it (`protocolVersion` differs only under
      // `exactOptionalPropertyTypes`).
      transport: throttleAwareTransport(new HttpV1(new URL(servers.host.url)), {
        onEvent,
      }) as never,
    });
    try {
      const tools = await mcp.tools();
      const run = (name: string) =>
        tools[name]?.execute?.(args, { toolCallId: "c", messages: [] }) as Promise<unknown>;
      await run("search");
      expect(readThrottle(await run("search"))).toBeUndefined();
      expect(count("retry")).toBe(1);
      await run("lookup");
      const before = servers.host.gate.toolCalls;
      const cooled = await run("lookup");
      expect(servers.host.gate.toolCalls).toBe(before);
      expect(count("cooldown-hit")).toBe(1);
      expect(readThrottle(cooled)).toMatchObject({
        limit: "lookup_rate_limit",
        source: "structuredContent",
      });
    } finally {
      await mcp.close();
    }
  });
});

describe("throttleAwareTransport: a transport that closes", () => {
  it("settles a request in flight when the transport closes, and sends nothing after", async () => {
    const sent: unknown[] = [];
    const inner = {
      onmessage: undefined as ((message: unknown) => void) | undefined,
      onclose: undefined as (() => void) | undefined,
      async start() {},
      async send(message: unknown) {
        sent.push(message);
      },
      async close() {
        inner.onclose?.();
      },
    };
    const closed: string[] = [];
    const transport = throttleAwareTransport(inner as never);
    (transport as unknown as { onclose: () => void }).onclose = () => closed.push("client");
    (transport as unknown as { onmessage: () => void }).onmessage = () => {};
    const held = (transport as unknown as { send(message: unknown): Promise<void> }).send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search", arguments: {} },
    });
    await (transport as unknown as { close(): Promise<void> }).close();
    await expect(held).rejects.toThrow(/closed/);
    expect(closed).toStrictEqual(["client"]);
    expect(sent).toHaveLength(1);
  });
});

describe("throttleAwareClient refuses what it cannot honour on every path", () => {
  it("names the adapter to use for an object that is a transport, not a client", () => {
    expect(() =>
      throttleAwareClient(new HttpV1(new URL("http://127.0.0.1:1/mcp")) as never),
    ).toThrow(/throttleAwareTransport/);
  });
});
