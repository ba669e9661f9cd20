// The tests every SDK client cell runs: honorThrottles through throttleAwareClient, with an
// official SDK client (1.x or 2.x) over Streamable HTTP or stdio (a real child process), against
// a real MCP server whose tools call a real rate-limited upstream on 127.0.0.1.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type HonorThrottlesOptions,
  readThrottle,
  type ThrottleEvent,
  throttleAwareClient,
} from "../../../src/client/index.js";
import { relayedResult } from "../../helpers/throttle.js";
import {
  type ClientKind,
  callArgs,
  connectClient,
  type SdkClient,
  type TransportKind,
} from "./clients.js";
import type { Servers } from "./use-servers.js";

const MESSAGE = "This endpoint has been requested too many times. Try again later.";

export function describeSdkCells(servers: Servers, cells: [ClientKind, TransportKind][]): void {
  // Every cell's client connects at once: a stdio server takes a while to start.
  const clients = new Map<string, SdkClient>();
  beforeAll(async () => {
    await Promise.all(
      cells.map(async ([kind, transport]) => {
        // The stdio server plans its own refusal: one -32023 for the first `status` call.
        const client = await connectClient(kind, transport, {
          url: servers.host.url,
          upstreamUrl: servers.upstream.url,
          refusals: [{ data: { retryAfterMs: 200 } }],
        });
        clients.set(`${kind} ${transport}`, client);
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([...clients.values()].map((client) => client.close()));
  });

  describe.each(cells)("%s over %s", (kind, transport) => {
    let client: SdkClient;
    let events: ThrottleEvent[];
    const honoured = (options: HonorThrottlesOptions = {}) =>
      throttleAwareClient(client, { onEvent: (event) => events.push(event), ...options });
    const requests = (path: string) => servers.upstream.requests.get(path) ?? 0;

    beforeAll(() => {
      client = clients.get(`${kind} ${transport}`) as SdkClient;
    });

    beforeEach(() => {
      events = [];
    });

    it("waits out a short tool-layer throttle and returns the retry's success", async () => {
      const mcp = honoured();
      await mcp.callTool(...callArgs(kind, "search"));
      const result = await mcp.callTool(...callArgs(kind, "search"));
      expect(readThrottle(result)).toBeUndefined();
      expect(result).toMatchObject({
        content: [{ type: "text", text: expect.stringContaining("first result") }],
      });
      expect(requests("/search")).toBe(3);
      const retry = events.find((event) => event.type === "retry");
      // Jitter only adds: never earlier than the whole second the result asked for.
      expect(retry).toMatchObject({ limit: "search_rate_limit", attempt: 1 });
      expect(retry?.type === "retry" && retry.waitMs).toBeGreaterThanOrEqual(1000);
    });

    it("returns a long tool-layer throttle at once, as the server sent it", async () => {
      const result = await honoured().callTool(...callArgs(kind, "lookup"));
      expect(result).toStrictEqual(
        relayedResult({ limit: "lookup_rate_limit", retryAfterSeconds: 60, message: MESSAGE }),
      );
      expect(requests("/lookup")).toBe(1);
      expect(events.map((event) => event.type)).toStrictEqual(["throttle"]);
    });

    it("answers the next call to that limit from the cooldown, without a round trip", async () => {
      const mcp = honoured();
      await mcp.callTool(...callArgs(kind, "lookup"));
      const answer = await mcp.callTool(...callArgs(kind, "lookup"));
      expect(requests("/lookup")).toBe(1);
      expect(answer).toMatchObject({
        isError: true,
        structuredContent: { error: { limit: "lookup_rate_limit" } },
      });
      expect(readThrottle(answer)).toMatchObject({ layer: "tool", limit: "lookup_rate_limit" });
      expect(events.at(-1)).toMatchObject({ type: "cooldown-hit", limit: "lookup_rate_limit" });
    });

    it("waits out the server's own -32023 (in band, data.retryAfterMs) and the retry succeeds", async () => {
      if (transport === "streamable-http")
        servers.host.gate.refuse({ data: { retryAfterMs: 200 } });
      const result = await honoured().callTool(...callArgs(kind, "status"));
      expect(readThrottle(result)).toBeUndefined();
      expect(events.find((event) => event.type === "throttle")).toMatchObject({
        limit: "mcp-server",
        retryAfterMs: 200,
        delaySource: "json-rpc-retry-after-ms",
      });
      expect(requests("/status")).toBe(1);
    });

    it("ends a wait the moment the caller aborts, with the caller's reason", async () => {
      const controller = new AbortController();
      const reason = new Error("the user cancelled");
      // The second call is throttled for a second; the caller stops it once the wait has begun
      // (the event comes as the wait starts; the microtask runs once the wait listens).
      const mcp = honoured({
        onEvent: (event) => {
          events.push(event);
          if (event.type === "throttle") queueMicrotask(() => controller.abort(reason));
        },
      });
      await mcp.callTool(...callArgs(kind, "search"));
      await expect(
        mcp.callTool(...callArgs(kind, "search", { signal: controller.signal })),
      ).rejects.toBe(reason);
      // The retry it waited for was never sent, and so never reported.
      expect(events.filter((event) => event.type === "retry")).toHaveLength(0);
      expect(requests("/search")).toBe(2);
    });

    // Once per client version: the probe does not depend on the transport, and it takes a second.
    if (transport === "streamable-http") {
      it("ten parallel calls to a throttled limit make one server call", async () => {
        const learning = new AbortController();
        const mcp = honoured({
          // Room to wait out the 1 s cooldown once, not twice.
          maxWaitMs: 1700,
          onEvent: (event) => {
            events.push(event);
            if (event.type === "throttle") learning.abort();
          },
        });
        // The host learns that `archive` is throttled (for a second), and stops waiting.
        await expect(
          mcp.callTool(...callArgs(kind, "archive", { signal: learning.signal })),
        ).rejects.toThrow();
        expect(requests("/archive")).toBe(1);
        events = [];
        const results = await Promise.all(
          Array.from({ length: 10 }, () => mcp.callTool(...callArgs(kind, "archive"))),
        );
        // All ten wait out the cooldown; one probes the server and is throttled again; the other
        // nine are answered from the cooldown.
        expect(requests("/archive")).toBe(2);
        for (const result of results) {
          expect(readThrottle(result)).toMatchObject({
            layer: "tool",
            limit: "archive_rate_limit",
          });
        }
        expect(events.filter((event) => event.type === "cooldown-hit")).toHaveLength(9);
      });
    }

    it("keeps the client's other methods and properties working", async () => {
      const mcp = honoured();
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toStrictEqual([
        "search",
        "lookup",
        "archive",
        "status",
      ]);
      await expect(mcp.ping()).resolves.toBeDefined();
      expect(Object.getPrototypeOf(mcp)).toBe(Object.getPrototypeOf(client));
      expect(mcp.constructor).toBe(client.constructor);
      const onerror = () => {};
      Object.assign(mcp, { onerror });
      expect((client as { onerror?: unknown }).onerror).toBe(onerror);
    });
  });
}
