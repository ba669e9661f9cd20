// Attacks on adoption from outside: a second install, a tool whose work outlives its call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import axios from "axios";
import Bottleneck from "bottleneck";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { throttleAxios } from "../../src/adopt/axios.js";
import { throttleGlobalFetch } from "../../src/adopt/global-fetch.js";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { CallRecord, useScopeForTests } from "../../src/internal/call-scope.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
/** Answers the held `/held-limited` request, once a test asks. */
let releaseHeld: (() => void) | undefined;
const closers: (() => Promise<void> | void)[] = [];
// Kept before any install, as an SDK that captures `fetch` at import keeps it.
const capturedFetch = globalThis.fetch;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/held-limited")) {
      releaseHeld = () => {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
        res.end(JSON.stringify({ error: "Too many requests, slow down" }));
      };
      return;
    }
    if (req.url?.startsWith("/echo-limited")) {
      // An upstream that echoes what it was sent: the caller's own key, in its refusal.
      res.writeHead(429, { "content-type": "application/json", "retry-after": "9" });
      res.end(JSON.stringify({ message: `Key ${req.headers["x-api-key"]} is over its quota.` }));
      return;
    }
    if (req.url?.startsWith("/limited")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "12" });
      res.end(JSON.stringify({ error: "Too many requests, slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true }));
  });
});
afterAll(() => upstream.close());
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("throttleGlobalFetch installed twice", () => {
  it("puts the process's own fetch back when the second install is restored", () => {
    const before = globalThis.fetch;
    const first = throttleGlobalFetch();
    const second = throttleGlobalFetch();
    second();
    expect(globalThis.fetch).toBe(before);
    first();
    expect(globalThis.fetch).toBe(before);
  });

  it("replaces the first install: its throwOnThrottle no longer applies", async () => {
    const first = throttleGlobalFetch({ throwOnThrottle: true });
    const second = throttleGlobalFetch();
    closers.push(first, second);
    const response = await fetch(`${upstream.url}/limited`);
    expect(response.status).toBe(429);
    await response.text();
  });
});

async function connect(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

describe("one call at a time (no AsyncLocalStorage): work a call leaves behind", () => {
  afterEach(() => useScopeForTests("reset"));

  it("never gives a throttle of a request a finished call sent to the lone call after it", async () => {
    useScopeForTests("single-call");
    closers.push(throttleGlobalFetch());
    let background: Promise<unknown> | undefined;
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("prefetch", {}, async () => {
      // Sent while this call runs alone, answered after it has returned.
      background = fetch(`${upstream.url}/held-limited`).then((r) => r.text());
      await vi.waitFor(() => expect(releaseHeld).toBeDefined());
      return { content: [{ type: "text", text: "started" }] };
    });
    server.registerTool("get", {}, async () => {
      releaseHeld?.();
      // This call sends nothing through a door: it waits for the other call's request.
      await background;
      return { content: [{ type: "text", text: "fine" }] };
    });
    const client = await connect(server);
    await client.callTool({ name: "prefetch", arguments: {} });
    const result = await client.callTool({ name: "get", arguments: {} });
    expect(parseRateLimitedResult(result)).toBeUndefined();
    expect(result.content).toStrictEqual([{ type: "text", text: "fine" }]);
  });
});

describe("a request a call leaves running (fire and forget)", () => {
  it("never turns the call's success into a throttle when its 429 arrives after the call answered", async () => {
    const search = throttledFetch({ limit: "search" });
    let left: Promise<unknown> | undefined;
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("prefetch", {}, async () => {
      left = search(`${upstream.url}/held-limited`).catch((error: unknown) => error);
      await vi.waitFor(() => expect(releaseHeld).toBeDefined());
      return { content: [{ type: "text", text: "started" }] };
    });
    const client = await connect(server);
    const results = [];
    for (let call = 0; call < 15; call += 1) {
      releaseHeld = undefined;
      results.push(await client.callTool({ name: "prefetch", arguments: {} }));
      // The upstream answers 429 now, after the call has answered.
      (releaseHeld as (() => void) | undefined)?.();
      expect(await left).toMatchObject({ name: "UpstreamRateLimitedError", limit: "search" });
    }
    expect(results.filter((result) => parseRateLimitedResult(result) !== undefined)).toHaveLength(
      0,
    );
  });

  it("never lets the 429 of a request the tool never awaited replace its success, while it runs", async () => {
    closers.push(throttleGlobalFetch({ limit: "search" }));
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("ping-and-search", {}, async () => {
      // Sent and never taken up: an analytics ping, fire and forget.
      void fetch(`${upstream.url}/held-limited`);
      await vi.waitFor(() => expect(releaseHeld).toBeDefined());
      const response = await fetch(`${upstream.url}/ok`);
      const text = JSON.stringify(await response.json());
      // Its 429 arrives after the tool's own success, while the tool still runs.
      (releaseHeld as (() => void) | undefined)?.();
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { content: [{ type: "text", text }] };
    });
    const client = await connect(server);
    const results = [];
    for (let call = 0; call < 15; call += 1) {
      releaseHeld = undefined;
      results.push(await client.callTool({ name: "ping-and-search", arguments: {} }));
    }
    expect(results.filter((result) => parseRateLimitedResult(result) !== undefined)).toHaveLength(
      0,
    );
  });

  it("still turns a throttle the tool awaited and caught into the result, beside a request it left", async () => {
    closers.push(throttleGlobalFetch({ limit: "search" }));
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("search", {}, async () => {
      void fetch(`${upstream.url}/ok`);
      const response = await fetch(`${upstream.url}/limited`);
      return { content: [{ type: "text", text: `status ${response.status}` }], isError: true };
    });
    const client = await connect(server);
    const result = await client.callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toMatchObject({ limit: "search" });
  });

  it("ignores what the doors tell a record once its call is settled", () => {
    const record = new CallRecord();
    record.close();
    record.throttle(new Error("a late 429"));
    record.built({ isError: true });
    expect(record.last).toBeUndefined();
    expect(record.results).toHaveLength(0);
    const open = new CallRecord();
    open.throttle(new Error("429"));
    open.close();
    open.answered();
    expect(open.last).toBeDefined();
  });
});

describe("throttleAxios and an upstream that echoes the request's key", () => {
  const key = "qv7Rw2mZp9Lx4Tn8";

  async function limitedResult(validateStatus?: () => boolean) {
    const api = throttleAxios(
      axios.create({
        baseURL: upstream.url,
        headers: { "x-api-key": key },
        ...(validateStatus === undefined ? {} : { validateStatus }),
      }),
    );
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("get", {}, async () => {
      try {
        const response = await api.get("/echo-limited");
        return { content: [{ type: "text", text: String(response.status) }] };
      } catch {
        return { content: [{ type: "text", text: "failed" }], isError: true };
      }
    });
    const client = await connect(server);
    return parseRateLimitedResult(await client.callTool({ name: "get", arguments: {} }));
  }

  it("keeps the key out of the message of a 429 axios threw", async () => {
    const error = await limitedResult();
    expect(error?.retry_after_seconds).toBe(9);
    expect(JSON.stringify(error)).not.toContain(key);
    expect(error?.limit).toBe("127.0.0.1");
  });

  it("keeps the key out of the message of a 429 validateStatus let through", async () => {
    const error = await limitedResult(() => true);
    expect(error?.retry_after_seconds).toBe(9);
    expect(JSON.stringify(error)).not.toContain(key);
    // The host the request asked for names the limit, as for a 429 axios threw.
    expect(error?.limit).toBe("127.0.0.1");
  });
});

describe("throttleGlobalFetch and an upstream that echoes the request's key", () => {
  const key = "Lm3Xq8Rv2Tz7Wp5K";

  async function limitedResult(send: () => Promise<Response>) {
    closers.push(throttleGlobalFetch());
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("get", {}, async () => {
      const response = await send();
      return { content: [{ type: "text", text: await response.text() }] };
    });
    const client = await connect(server);
    return parseRateLimitedResult(await client.callTool({ name: "get", arguments: {} }));
  }

  it.each([
    [
      "the process's fetch, headers in init",
      () => fetch(`${upstream.url}/echo-limited`, { headers: { "x-api-key": key } }),
    ],
    [
      "the process's fetch, a Request",
      () => fetch(new Request(`${upstream.url}/echo-limited`, { headers: { "x-api-key": key } })),
    ],
    [
      "a fetch captured before the install",
      () => capturedFetch(`${upstream.url}/echo-limited`, { headers: { "x-api-key": key } }),
    ],
    [
      "a captured fetch, a Headers",
      () =>
        capturedFetch(`${upstream.url}/echo-limited`, {
          headers: new Headers({ "x-api-key": key }),
        }),
    ],
  ])("keeps the key out of the message, through %s", async (_, send) => {
    const error = await limitedResult(send);
    expect(error?.retry_after_seconds).toBe(9);
    expect(JSON.stringify(error)).not.toContain(key);
  });
});

describe("a job queue shared by concurrent calls (Bottleneck, as Octokit's throttling plugin uses)", () => {
  // Open: a queue starts the next caller's job from the callback of the job before it, so the
  // job runs in that earlier call's async context and its throttle is told to that call. Per
  // call scoping cannot see through a scheduler that does not carry the context of whoever
  // queued the job (p-limit does, with AsyncResource.bind); nothing in this package can.
  it.fails("tells the throttle of a queued job to the call that queued it", async () => {
    const limiter = new Bottleneck({ maxConcurrent: 1 });
    const search = throttledFetch({ limit: "search" });
    let releaseFirst: (() => void) | undefined;
    const firstDone = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("first", {}, async () => {
      await limiter.schedule(async () => {
        await (await search(`${upstream.url}/ok`)).text();
        await firstDone;
      });
      // The queued job of the other call runs now, in this call's context; this call waits on.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { content: [{ type: "text", text: "first" }] };
    });
    server.registerTool("second", {}, async () => {
      try {
        await limiter.schedule(() => search(`${upstream.url}/limited`));
        return { content: [{ type: "text", text: "second" }] };
      } catch {
        return { content: [{ type: "text", text: "failed" }], isError: true };
      }
    });
    const client = await connect(server);
    const first = client.callTool({ name: "first", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = client.callTool({ name: "second", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    releaseFirst?.();
    const [a, b] = await Promise.all([first, second]);
    expect(parseRateLimitedResult(a)).toBeUndefined();
    expect(parseRateLimitedResult(b)).toBeDefined();
  });
});
