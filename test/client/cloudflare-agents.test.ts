// `throttleAwareClient` over an object of Cloudflare `agents`' `MCPClientManager` shape, in Node:
// the real manager runs in workerd in test/frameworks/cf-agents (`bash .ci/hosts.sh`). Here the
// manager's two members this adapter relies on are copied from agents 0.32.0
// (`dist/client-*.js`): `callTool({ serverId, ...params }, options)` calls that server's SDK
// client, and `getAITools()` makes tools whose `execute` calls `this.callTool` and throws
// `Error(text)` for an error result. Real SDK clients, the real server over Streamable HTTP.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ThrottleEvent, throttleAwareClient } from "../../src/client/index.js";
import { connectClient, type SdkClient } from "./helpers/clients.js";
import { useServers } from "./helpers/use-servers.js";

const servers = useServers();
let events: ThrottleEvent[];
let clients: SdkClient[];
const count = (type: ThrottleEvent["type"]) => events.filter((event) => event.type === type).length;

type Execute = (args: unknown, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;

/** The shape of agents 0.32.0's `MCPClientManager`; `late`: tools that await before calling. */
class Manager {
  constructor(
    readonly mcpConnections: Record<string, { client: SdkClient; tools: string[] }>,
    private readonly late = false,
  ) {}
  callTool(params: { serverId: string; name: string; arguments?: unknown }, options?: unknown) {
    const { serverId, ...rest } = params;
    const connection = this.mcpConnections[serverId];
    if (connection === undefined) return Promise.reject(new Error(`no server ${serverId}`));
    return connection.client.callTool(rest, undefined, options);
  }
  getAITools(): Record<string, { execute: Execute }> {
    const entries: [string, { execute: Execute }][] = [];
    for (const [serverId, connection] of Object.entries(this.mcpConnections)) {
      for (const name of connection.tools) {
        const execute: Execute = async (args) => {
          if (this.late) await Promise.resolve();
          const result = (await this.callTool({ arguments: args, name, serverId })) as {
            isError?: boolean;
            content?: { type: string; text?: string }[];
          };
          if (result.isError) {
            const first = result.content?.[0];
            throw new Error(first?.type === "text" && first.text ? first.text : "Tool call failed");
          }
          return result;
        };
        entries.push([`tool_${serverId}_${name}`, { execute }]);
      }
    }
    return Object.fromEntries(entries);
  }
}

beforeEach(async () => {
  events = [];
  const connect = () =>
    connectClient("sdk-1.x", "streamable-http", {
      url: servers.host.url,
      upstreamUrl: servers.upstream.url,
    });
  clients = [await connect(), await connect()];
});
afterEach(async () => {
  for (const client of clients) await client.close();
});

const manager = (late = false) =>
  new Manager(
    {
      one: { client: clients[0] as SdkClient, tools: ["search", "lookup"] },
      two: { client: clients[1] as SdkClient, tools: ["lookup"] },
    },
    late,
  );
const args = { query: "rate limits" };
/** A manager whose `getAITools` is async, as a later version's might be. */
class AsyncManager extends Manager {
  // @ts-expect-error: the same tools, promised
  override async getAITools() {
    return super.getAITools();
  }
}
const thrown = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: Error) => error,
  );

describe("throttleAwareClient(this.mcp).getAITools() (agents 0.32.0 MCPClientManager shape)", () => {
  it("the tools go through the wait and one cooldown per server; the model is given Error(text)", async () => {
    const tools = throttleAwareClient(manager(), {
      onEvent: (event) => events.push(event),
    }).getAITools();
    await tools.tool_one_search?.execute(args);
    await tools.tool_one_search?.execute(args);
    expect(count("retry")).toBe(1);
    const long = await thrown(tools.tool_one_lookup?.execute(args) as Promise<unknown>);
    expect(long?.message).toBe(
      'Rate limited by lookup_rate_limit. Retry after 60 seconds. The upstream said: "This endpoint has been requested too many times. Try again later."',
    );
    const before = servers.host.gate.toolCalls;
    const cooled = await thrown(tools.tool_one_lookup?.execute(args) as Promise<unknown>);
    expect(servers.host.gate.toolCalls).toBe(before);
    expect(count("cooldown-hit")).toBe(1);
    expect(cooled).toBeInstanceOf(Error);
    expect(cooled?.message).toMatch(
      /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.$/,
    );
    // The other server's `lookup` is not answered from the first server's cooldown.
    await thrown(tools.tool_two_lookup?.execute(args) as Promise<unknown>);
    expect(servers.host.gate.toolCalls).toBe(before + 1);
    expect(count("cooldown-hit")).toBe(1);
  });

  it("tools that call `callTool` only after an await: the abortSignal still ends `execute` at once", async () => {
    const controller = new AbortController();
    const tools = throttleAwareClient(manager(true), {
      onEvent: (event) => {
        events.push(event);
        // The second search is throttled: the caller stops just after its wait has begun (the
        // event comes as the wait starts; the microtask runs once the wait listens).
        if (event.type === "throttle" && armed)
          queueMicrotask(() => controller.abort(new Error("stop")));
      },
    }).getAITools();
    let armed = false;
    await tools.tool_one_search?.execute(args);
    armed = true;
    const started = performance.now();
    const stopped = await thrown(
      tools.tool_one_search?.execute(args, { abortSignal: controller.signal }) as Promise<unknown>,
    );
    expect(stopped?.message).toBe("stop");
    expect(performance.now() - started).toBeLessThan(800);
  });

  it("a `getAITools` that returns a promise: the tools it resolves with honour throttles", async () => {
    const { one, two } = manager().mcpConnections;
    // Its own list: the call an earlier test's abort left running may still send its retry.
    const own: ThrottleEvent[] = [];
    const view = throttleAwareClient(new AsyncManager({ one, two } as never), {
      onEvent: (event) => own.push(event),
    });
    const tools = (await view.getAITools()) as Record<string, { execute: Execute }>;
    await tools.tool_one_search?.execute(args);
    await tools.tool_one_search?.execute(args);
    expect(own.filter((event) => event.type === "retry")).toHaveLength(1);
  });
});
