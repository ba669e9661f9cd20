// throttledTool against real servers and clients of both SDKs, in memory: the one declaration
// decides the placement, so the 1.x client's -32602 on a double declaration cannot happen.

import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  throttledTool,
  UpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";
import { widenOutputShape } from "../../src/zod.js";

const hits = { hits: z.array(z.string()) };
const throttle = () =>
  new UpstreamRateLimitedError({
    limit: "search",
    status: 429,
    retryAfterMs: 30_000,
  });
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function clientV1(server: McpServerV1): Promise<ClientV1> {
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  await client.listTools(); // the 1.x client validates against the schemas it listed
  return client;
}

async function clientV2(server: McpServerV2): Promise<ClientV2> {
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV2({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  await client.listTools();
  return client;
}

describe("throttledTool on the 1.x McpServer, called by the 1.x client", () => {
  it("control: an outputSchema given to registerTool only makes the 1.x client throw -32602", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: { q: z.string() }, outputSchema: hits },
      withUpstreamThrottle(async () => {
        throw throttle();
      }),
    );
    const client = await clientV1(server);
    await expect(client.callTool({ name: "search", arguments: { q: "x" } })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("declared once, the same tool's throttle reaches the client in _meta", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool({ inputSchema: { q: z.string() }, outputSchema: hits }, async () => {
        throw throttle();
      }),
    );
    const client = await clientV1(server);
    const result = await client.callTool({ name: "search", arguments: { q: "x" } });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: "Rate limited by search. Retry after 30 seconds." }],
      _meta: {
        [RATE_LIMITED_META_KEY]: {
          type: "rate_limited",
          retry_after_seconds: 30,
          limit: "search",
          message: expect.any(String),
        },
      },
      isError: true,
    });
  });

  it("keeps the tool's success result and its declared schema untouched", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    const config = { inputSchema: { q: z.string() }, outputSchema: hits };
    const [registered] = throttledTool(config, async ({ q }) => ({
      content: [{ type: "text" as const, text: q }],
      structuredContent: { hits: [q] },
    }));
    expect(registered).toBe(config);
    server.registerTool(
      "search",
      ...throttledTool(config, async ({ q }) => ({
        content: [{ type: "text" as const, text: q }],
        structuredContent: { hits: [q] },
      })),
    );
    const client = await clientV1(server);
    const { tools } = await client.listTools();
    expect(tools[0]?.outputSchema).toMatchObject({ required: ["hits"] });
    expect(await client.callTool({ name: "search", arguments: { q: "mcp" } })).toStrictEqual({
      content: [{ type: "text", text: "mcp" }],
      structuredContent: { hits: ["mcp"] },
    });
  });

  it("puts the error in structuredContent when the author widened the schema, or declared none", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    const fail = async () => {
      throw throttle();
    };
    server.registerTool(
      "widened",
      ...throttledTool({ outputSchema: widenOutputShape(hits) }, fail),
    );
    server.registerTool("plain", ...throttledTool({ description: "no schema" }, fail));
    const client = await clientV1(server);
    for (const name of ["widened", "plain"]) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result).toHaveProperty("structuredContent.error.retry_after_seconds", 30);
      expect(result).not.toHaveProperty("_meta");
    }
  });

  it("passes its options on: a vendor error is named by `limit`", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool(
      "search",
      ...throttledTool(
        { inputSchema: { q: z.string() } },
        async () => {
          throw Object.assign(new Error("429"), { status: 429, headers: { "retry-after": "7" } });
        },
        { limit: "vendor_search" },
      ),
    );
    const client = await clientV1(server);
    const error = parseRateLimitedResult(
      await client.callTool({ name: "search", arguments: { q: "x" } }),
    );
    expect(error).toMatchObject({ limit: "vendor_search", retry_after_seconds: 7 });
  });
});

describe("throttledTool on the 2.x McpServer, called by the 2.x client", () => {
  it("places the error by the declared schema: _meta for a strict one, structuredContent without", async () => {
    const server = new McpServerV2({ name: "t", version: "1.0.0" });
    const fail = async () => {
      throw throttle();
    };
    server.registerTool(
      "strict",
      ...throttledTool(
        { inputSchema: z.object({ q: z.string() }), outputSchema: z.object(hits) },
        fail,
      ),
    );
    server.registerTool(
      "plain",
      ...throttledTool({ inputSchema: z.object({ q: z.string() }) }, fail),
    );
    const client = await clientV2(server);
    const strict = await client.callTool({ name: "strict", arguments: { q: "x" } });
    expect(strict).toHaveProperty(["_meta", RATE_LIMITED_META_KEY, "retry_after_seconds"], 30);
    expect(strict).not.toHaveProperty("structuredContent");
    const plain = await client.callTool({ name: "plain", arguments: { q: "x" } });
    expect(plain).toHaveProperty("structuredContent.error.retry_after_seconds", 30);
  });
});

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("the callback's signal", () => {
  // 2.x puts the request's signal at ctx.mcpReq.signal, 1.x at extra.signal; the callback gets
  // it as `signal` from both, so the quick start's `fetch(url, { signal })` is cancelled on both.
  it("is the 2.x request's signal, aborted when the client cancels the call", async () => {
    const server = new McpServerV2({ name: "t", version: "1.0.0" });
    const seen = deferred<AbortSignal>();
    const request = deferred<AbortSignal | undefined>();
    server.registerTool(
      "wait",
      ...throttledTool({ inputSchema: z.object({ q: z.string() }) }, async (_args, extra) => {
        request.resolve(extra.mcpReq?.signal);
        seen.resolve(extra.signal);
        await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
        return { content: [] };
      }),
    );
    const client = await clientV2(server);
    const caller = new AbortController();
    const done = client
      .callTool({ name: "wait", arguments: { q: "x" } }, { signal: caller.signal })
      .catch(() => "rejected");
    const signal = await seen.promise;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal).toBe(await request.promise);
    caller.abort();
    expect(await done).toBe("rejected");
    await expect.poll(() => signal.aborted).toBe(true);
  });

  it("is the 1.x extra's own signal, the extra passed on unchanged", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    const seen = deferred<{ signal: AbortSignal; sessionId?: string | undefined }>();
    server.registerTool(
      "wait",
      ...throttledTool({ inputSchema: { q: z.string() } }, async (_args, extra) => {
        seen.resolve(extra);
        await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
        return { content: [] };
      }),
    );
    const client = await clientV1(server);
    const caller = new AbortController();
    const done = client
      .callTool({ name: "wait", arguments: { q: "x" } }, undefined, { signal: caller.signal })
      .catch(() => "rejected");
    const extra = await seen.promise;
    expect(extra.signal).toBeInstanceOf(AbortSignal);
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    caller.abort();
    expect(await done).toBe("rejected");
    await expect.poll(() => extra.signal.aborted).toBe(true);
  });
  it("never aborts when the caller passed no signal, or no extra at all", async () => {
    const [, callback] = throttledTool({}, async ({ signal }) => ({
      content: [{ type: "text", text: `${signal instanceof AbortSignal} ${signal.aborted}` }],
    }));
    for (const extra of [{}, undefined]) {
      const result = await callback(extra as Parameters<typeof callback>[0]);
      expect(result.content).toStrictEqual([{ type: "text", text: "true false" }]);
    }
  });
});

describe("throttledTool's checks", () => {
  it("refuses an outputSchema in the options: it is declared once, in the config", () => {
    expect(() =>
      throttledTool({}, async () => ({ content: [] }), { outputSchema: hits } as never),
    ).toThrow(/^`outputSchema` is read from `config`/);
  });

  it("refuses a config that is not an object, and bad options, naming them", () => {
    expect(() => throttledTool("search" as never, async () => ({ content: [] }))).toThrow(
      /^`config`/,
    );
    expect(() => throttledTool({}, async () => ({ content: [] }), { limit: "" })).toThrow(
      /`limit`/,
    );
    expect(() => throttledTool({ outputSchema: 5 }, async () => ({ content: [] }))).toThrow(
      /^`outputSchema`/,
    );
  });
});
