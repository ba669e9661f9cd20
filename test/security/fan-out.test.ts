// A fan-out of more than ten parts, each passing its signal to undici.request (which listens on
// it with addEventListener): one shared AbortSignal collected a listener per part, and Node
// warned MaxListenersExceededWarning past ten.

import { Agent, request } from "undici";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { fanOutTool, parseRateLimitedResult, throttleInterceptor } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

/**
 * What `pending` answered within `ms` of simulated time (fake timers: the fan-out's grace and
 * deadline timers), or "no answer".
 */
async function answerWithin(pending: Promise<unknown>, ms: number): Promise<unknown> {
  let answer: unknown = "no answer";
  void pending.then((value) => {
    answer = value;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return answer;
}

function fakeTimeouts() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

describe("fanOutTool with many parts", () => {
  it("runs 24 parts without a MaxListenersExceededWarning, and aborts the rest after a throttle", async () => {
    upstream = await startServer((req, res) => {
      if (req.url === "/7") {
        res.writeHead(429, { "retry-after": "9" });
        res.end();
        return;
      }
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }, 300);
    });
    const url = upstream.url;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const agent = new Agent();
      const dispatcher = agent.compose(throttleInterceptor({ limit: "search" }));
      const tool = fanOutTool({
        parts: (_args: unknown, _extra: { signal: AbortSignal }) =>
          Object.fromEntries(
            Array.from({ length: 24 }, (_, i) => [
              `part${i}`,
              async (signal: AbortSignal) => {
                const response = await request(`${url}/${i}`, { dispatcher, signal });
                await response.body.dump();
                return { content: [] };
              },
            ]),
          ),
        merge: () => ({ content: [] }),
        graceMs: 10,
      });
      const result = await tool({}, { signal: new AbortController().signal });
      expect(parseRateLimitedResult(result)?.retry_after_seconds).toBe(9);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toStrictEqual([]);
      await agent.close();
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("what a fan-out relays (issue 17 items 12, 13)", () => {
  const KEY = "sk-live-RelayedLimit0123456789abcdef";

  it("a relayed part's limit reaches events cleaned: no credential, no 5,000 characters", async () => {
    const { rateLimitedResult } = await import("../../src/index.js");
    const events: unknown[] = [];
    const limit = `search ${"x".repeat(5000)} Authorization: Bearer ${KEY}`;
    const tool = fanOutTool({
      parts: () => ({ relayed: async () => rateLimitedResult({ limit, retryAfterSeconds: 5 }) }),
      merge: () => ({ content: [] }),
      onEvent: (event) => events.push(event),
    });
    const result = await tool();
    // The result itself is the part's, verbatim: the sub-tool's author owns it.
    expect(parseRateLimitedResult(result)?.limit).toBe(limit);
    expect(events).toHaveLength(1);
    const event = events[0] as { limit: string };
    expect(event.limit.length).toBeLessThanOrEqual(64);
    expect(JSON.stringify(events)).not.toContain("RelayedLimit");
  });

  it("answers shortly after graceMs when a part ignores its abort signal", async () => {
    const { rateLimitedResult } = await import("../../src/index.js");
    const tool = fanOutTool({
      parts: () => ({
        throttled: async () => rateLimitedResult({ limit: "x", retryAfterSeconds: 5 }),
        deaf: () => new Promise<never>(() => {}),
      }),
      merge: () => ({ content: [] }),
      graceMs: 20,
    });
    fakeTimeouts();
    // graceMs, then at most 50 ms for the aborted parts to settle: 70 simulated ms.
    const answer = await answerWithin(tool(), 70);
    expect(parseRateLimitedResult(answer)?.limit).toBe("x");
  });

  it("answers a plain failure shortly after graceMs when another part ignores its abort", async () => {
    const tool = fanOutTool({
      parts: () => ({
        failing: async () => ({
          content: [{ type: "text" as const, text: "boom" }],
          isError: true,
        }),
        deaf: () => new Promise<never>(() => {}),
      }),
      merge: () => ({ content: [] }),
      graceMs: 20,
    });
    fakeTimeouts();
    const answer = await answerWithin(tool(), 70);
    expect(answer).toMatchObject({ isError: true });
  });
});
