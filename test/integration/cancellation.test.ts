// The recipe "pass the MCP request's abort signal to the upstream call", end to end: a real
// client cancels a tools/call, and the upstream sees its connection close.

import {
  Client as ClientV2,
  InMemoryTransport as InMemoryTransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { throttledFetch, throttleInterceptor, withUpstreamThrottle } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer | undefined;
let upstreamClosed = 0;
let upstreamRequested = 0;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await upstream?.close();
  upstream = undefined;
});

/** An upstream that never answers: only a cancelled call can end. */
async function hangingUpstream(): Promise<TestServer> {
  upstreamClosed = 0;
  upstreamRequested = 0;
  upstream = await startServer((req) => {
    upstreamRequested += 1;
    req.socket.on("close", () => {
      upstreamClosed += 1;
    });
  });
  return upstream;
}

async function cancelDuringCall(call: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> {
  const controller = new AbortController();
  const pending = call(controller.signal).then(
    () => "resolved",
    (error: unknown) => error,
  );
  expect(await eventually(() => upstreamRequested === 1)).toBe(true);
  controller.abort(new Error("the user cancelled"));
  return pending;
}

describe("cancelling a tools/call cancels the upstream call the tool passed the signal to", () => {
  it("SDK 1.x: extra.signal into throttledFetch", async () => {
    const { url } = await hangingUpstream();
    const upstreamFetch = throttledFetch({ limit: "search" });
    const server = new McpServer({ name: "s", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: { query: z.string() } },
      withUpstreamThrottle(async ({ query }, extra) => {
        const response = await upstreamFetch(`${url}/search?q=${query}`, { signal: extra.signal });
        return { content: [{ type: "text", text: await response.text() }] };
      }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1.0.0" });
    await client.connect(clientSide);
    cleanups.push(() => client.close());

    const outcome = await cancelDuringCall((signal) =>
      client.callTool({ name: "search", arguments: { query: "x" } }, undefined, { signal }),
    );
    expect(outcome).toBeInstanceOf(Error);
    expect(await eventually(() => upstreamClosed === 1)).toBe(true);
  });

  it("SDK 2.x: ctx.mcpReq.signal into undici.request with throttleInterceptor", async () => {
    const { url } = await hangingUpstream();
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(throttleInterceptor({ limit: "search" }));
    const server = new McpServerV2({ name: "s", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: z.object({ query: z.string() }) },
      withUpstreamThrottle(async ({ query }, ctx) => {
        const response = await request(`${url}/search?q=${query}`, {
          dispatcher,
          signal: ctx.mcpReq.signal,
        });
        return { content: [{ type: "text" as const, text: await response.body.text() }] };
      }),
    );
    const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: "c", version: "1.0.0" });
    await client.connect(clientSide);
    cleanups.push(() => client.close());

    const outcome = await cancelDuringCall((signal) =>
      client.callTool({ name: "search", arguments: { query: "x" } }, { signal }),
    );
    expect(outcome).toBeInstanceOf(Error);
    expect(await eventually(() => upstreamClosed === 1)).toBe(true);
  });
});
