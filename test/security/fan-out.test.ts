// A fan-out of more than ten parts, each passing its signal to undici.request (which listens on
// it with addEventListener): one shared AbortSignal collected a listener per part, and Node
// warned MaxListenersExceededWarning past ten.

import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { fanOutTool, parseRateLimitedResult, throttleInterceptor } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

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
