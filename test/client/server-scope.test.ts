// A server's own refusal (the outer layer) is scoped to the server that sent it: in one merged
// tool set, server A's refusal never holds B's tools; A's other tools are held only where the
// adapter knows they share A (one SDK client, one `@ai-sdk/mcp` client), and where it cannot tell
// servers apart (a merged AI SDK tool set, VoltAgent's `getTools()` array) a refusal holds the
// tool that got it. Two real SDK servers, each over its own in-memory transport pair.

import { createMCPClient } from "@ai-sdk/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  isThrottleCooldownError,
  throttleAwareClient,
  throttleAwareTools,
} from "../../src/client/index.js";
import { type Refusal, refuseInBand } from "./helpers/server.js";

/** A day, as a server's own limit says it (`data.retryAfterMs`). */
const DAY = { code: -32029, data: { retryAfterMs: 86_400_000 } } satisfies Refusal;

interface Served {
  /** Each tool call that reached the server's tools, by tool name. */
  ran: string[];
  /** Refuses the next `tools/call` with `refusal`. */
  refuseNext(refusal: Refusal): void;
  clientSide: InMemoryTransport;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real MCP server with `tools`, each answering "ok from <name>", behind an in-band gate. */
async function serve(name: string, tools: readonly string[]): Promise<Served> {
  const server = new McpServer({ name, version: "1.0.0" });
  const ran: string[] = [];
  for (const tool of tools) {
    server.registerTool(tool, { description: `The ${tool} tool.` }, async () => {
      ran.push(tool);
      return { content: [{ type: "text", text: `ok from ${tool}` }] };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const plan: Refusal[] = [];
  refuseInBand(serverSide, (message) =>
    "method" in message && message.method === "tools/call" ? plan.shift() : undefined,
  );
  closers.push(() => server.close());
  return { ran, refuseNext: (refusal) => plan.push(refusal), clientSide };
}

async function aiSdkClient(served: Served) {
  const mcp = await createMCPClient({ transport: served.clientSide });
  closers.push(() => mcp.close());
  return mcp;
}

async function sdkClient(served: Served): Promise<Client> {
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(served.clientSide);
  closers.push(() => client.close());
  return client;
}

const callOptions = { toolCallId: "call-1", messages: [] };
type Executable = { execute?: ((input: unknown, options: never) => unknown) | undefined };
const run = (tools: Record<string, Executable>, name: string) =>
  Promise.resolve(tools[name]?.execute?.({}, callOptions as never));
const failure = (pending: Promise<unknown>) =>
  pending.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("a server's own refusal in a merged AI SDK tool set (throttleAwareTools)", () => {
  it("server A's refusal for a day never holds server B's tools", async () => {
    const [a, b] = await Promise.all([serve("a", ["a_search"]), serve("b", ["b_search"])]);
    const tools = throttleAwareTools({
      ...(await (await aiSdkClient(a)).tools()),
      ...(await (await aiSdkClient(b)).tools()),
    });
    a.refuseNext(DAY);
    expect(isThrottleCooldownError(await failure(run(tools, "a_search")))).toBe(false);
    expect(await run(tools, "b_search")).toMatchObject({
      content: [{ type: "text", text: "ok from b_search" }],
    });
    expect(b.ran).toEqual(["b_search"]);
  });

  it("holds the refused tool, not A's other tools: a merged set does not say which tools share A", async () => {
    const [a, b] = await Promise.all([serve("a", ["a_search", "a_lookup"]), serve("b", ["b_x"])]);
    const tools = throttleAwareTools({
      ...(await (await aiSdkClient(a)).tools()),
      ...(await (await aiSdkClient(b)).tools()),
    });
    a.refuseNext(DAY);
    await failure(run(tools, "a_search"));
    const held = await failure(run(tools, "a_search"));
    expect(isThrottleCooldownError(held)).toBe(true);
    expect(await run(tools, "a_lookup")).toMatchObject({
      content: [{ type: "text", text: "ok from a_lookup" }],
    });
    expect(a.ran).toEqual(["a_lookup"]);
  });
});

describe("a server's own refusal through throttleAwareClient (one client, one server)", () => {
  it("`throttleAwareClient(mcp).tools()` per AI SDK client, merged: A's refusal holds A's other tools and never B's", async () => {
    const [a, b] = await Promise.all([serve("a", ["a_search", "a_lookup"]), serve("b", ["b_x"])]);
    const tools: Record<string, Executable> = {
      ...(await throttleAwareClient(await aiSdkClient(a)).tools()),
      ...(await throttleAwareClient(await aiSdkClient(b)).tools()),
    };
    a.refuseNext(DAY);
    await failure(run(tools, "a_search"));
    const held = await failure(run(tools, "a_lookup"));
    expect(isThrottleCooldownError(held)).toBe(true);
    expect(held).toMatchObject({ layer: "server" });
    expect(a.ran).toEqual([]);
    expect(await run(tools, "b_x")).toMatchObject({ content: [{ text: "ok from b_x" }] });
  });

  it("two SDK clients, each wrapped: A's refusal holds A's other tools and never B's", async () => {
    const [a, b] = await Promise.all([serve("a", ["search", "lookup"]), serve("b", ["search"])]);
    const mcpA = throttleAwareClient(await sdkClient(a));
    const mcpB = throttleAwareClient(await sdkClient(b));
    a.refuseNext(DAY);
    await failure(mcpA.callTool({ name: "search", arguments: {} }));
    expect(isThrottleCooldownError(await failure(mcpA.callTool({ name: "lookup" })))).toBe(true);
    expect(await mcpB.callTool({ name: "search", arguments: {} })).toMatchObject({
      content: [{ text: "ok from search" }],
    });
    expect(a.ran).toEqual([]);
    expect(b.ran).toEqual(["search"]);
  });
});

/** VoltAgent 2.10's `MCPConfiguration.getTools()`, by shape: every server's tools in one array. */
async function voltAgentTools(servers: readonly [string, Served][]) {
  const tools: { name: string; execute: (args: unknown) => Promise<unknown> }[] = [];
  for (const [serverName, served] of servers) {
    const client = await sdkClient(served);
    const { tools: listed } = await client.listTools();
    for (const { name } of listed) {
      tools.push({
        name: `${serverName}_${name}`,
        execute: async (args) =>
          (await client.callTool({ name, arguments: args as Record<string, unknown> })).content,
      });
    }
  }
  return tools;
}

describe("a server's own refusal in VoltAgent's merged array (throttleAwareTools)", () => {
  it("server A's refusal holds neither B's tools nor A's others", async () => {
    const [a, b] = await Promise.all([serve("a", ["search", "lookup"]), serve("b", ["search"])]);
    const tools = throttleAwareTools(
      await voltAgentTools([
        ["a", a],
        ["b", b],
      ]),
    );
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    a.refuseNext(DAY);
    await failure(run(byName, "a_search"));
    expect(isThrottleCooldownError(await failure(run(byName, "a_search")))).toBe(true);
    expect(await run(byName, "b_search")).toMatchObject([{ text: "ok from search" }]);
    expect(await run(byName, "a_lookup")).toMatchObject([{ text: "ok from lookup" }]);
    expect(a.ran).toEqual(["lookup"]);
    expect(b.ran).toEqual(["search"]);
  });
});

describe("a server's own refusal in any merged tool set (property)", () => {
  it("never holds back a tool other than the one it answered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.nat(),
        fc.integer({ min: 60_000, max: 86_400_000 }),
        async (names, pick, retryAfterMs) => {
          const refused = names[pick % names.length] as string;
          const ran: string[] = [];
          let refusing = true;
          const merged = Object.fromEntries(
            names.map((name) => [
              name,
              {
                execute: async () => {
                  if (name === refused && refusing) {
                    refusing = false;
                    throw { code: -32029, message: "Rate limited", data: { retryAfterMs } };
                  }
                  ran.push(name);
                  return { content: [{ type: "text", text: `ok from ${name}` }] };
                },
              },
            ]),
          );
          const tools = throttleAwareTools(merged, { maxWaitMs: 0 });
          await failure(run(tools, refused));
          for (const name of names) if (name !== refused) await run(tools, name);
          expect(ran).toEqual(names.filter((name) => name !== refused));
          expect(isThrottleCooldownError(await failure(run(tools, refused)))).toBe(true);
        },
      ),
    );
  });
});
