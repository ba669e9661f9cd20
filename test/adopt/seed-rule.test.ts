// The seed's rule: the model never reads less than it did without the library. Each fixture is a
// tool written the way real servers write them, run once on a server that has not adopted the
// library (what the model read before) and once adopted (what it reads after), through a real
// SDK 1.x client; every word of before (the request's credentials aside) is still there after.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { throttleGlobalFetch } from "../../src/adopt/global-fetch.js";
import { type ThrottleServerOptions, throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedText } from "../../src/client/text.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const KEY = "fc-9f8e7d6c5b4a39281706";
const FIRECRAWL_TEXT =
  "Rate limit exceeded. Consumed (req/min): 11, Remaining: 0. Upgrade your plan at " +
  `https://firecrawl.dev/pricing or set FIRECRAWL_API_KEY to continue (key ${KEY}).`;

let upstream: TestServer;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/search")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "37" });
      res.end(JSON.stringify({ error: { message: "5 requests per second" } }));
    } else if (req.url?.startsWith("/scrape")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "60" });
      res.end(JSON.stringify({ success: false, error: FIRECRAWL_TEXT }));
    } else {
      // GitHub's spent search quota: a 403 with the quota's headers.
      const reset = Math.ceil(Date.now() / 1000) + 60;
      res.writeHead(403, {
        "content-type": "application/json",
        "x-ratelimit-limit": "30",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "search",
      });
      res.end(JSON.stringify({ message: "API rate limit exceeded for user ID 1." }));
    }
  });
});
afterAll(() => upstream.close());

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
interface Fixture {
  name: string;
  tool: () => Promise<ToolResult>;
  options?: ThrottleServerOptions;
  /** What the door throws: the library's error reaches the tool's own catch-all. */
  throwOnThrottle?: boolean;
}

const authorized = { headers: { authorization: `Bearer ${KEY}` } };

const fixtures: Fixture[] = [
  {
    name: "a catch-all that returns `Error: <message>` text",
    throwOnThrottle: true,
    tool: async () => {
      try {
        const response = await fetch(`${upstream.url}/search?q=mcp`, authorized);
        const body = (await response.json()) as { error?: { message?: string } };
        if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
        return { content: [{ type: "text", text: JSON.stringify(body) }] };
      } catch (error) {
        return {
          content: [{ type: "text", text: `Error: ${(error as Error).message}` }],
          isError: true,
        };
      }
    },
    options: { limit: "search" },
  },
  {
    name: "a tool that returns the 429 body as its text",
    tool: async () => {
      const response = await fetch(`${upstream.url}/search?q=mcp`, authorized);
      return { content: [{ type: "text", text: await response.text() }] };
    },
  },
  {
    name: "a tool with its own recovery text (Firecrawl's keyless quota)",
    tool: async () => {
      const response = await fetch(`${upstream.url}/scrape`, authorized);
      const body = (await response.json()) as { error?: string };
      if (response.ok) return { content: [{ type: "text", text: "scraped" }] };
      return {
        content: [{ type: "text", text: `Failed to scrape: ${body.error ?? "unknown error"}` }],
        isError: true,
      };
    },
  },
  {
    name: 'GitHub, with the author\'s limit "github" over its resource "search"',
    options: { limit: "github" },
    tool: async () => {
      const response = await fetch(`${upstream.url}/github/search/issues?q=mcp`, authorized);
      const body = (await response.json()) as { message?: string };
      return {
        content: [{ type: "text", text: `GitHub API error ${response.status}: ${body.message}` }],
        isError: true,
      };
    },
  },
];

async function call(fixture: Fixture, adopted: boolean): Promise<ToolResult> {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  if (adopted) {
    throttleServer(server, fixture.options);
    restore = throttleGlobalFetch({ throwOnThrottle: fixture.throwOnThrottle === true });
  }
  server.registerTool("tool", { description: "a fixture" }, fixture.tool);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    await client.listTools();
    return (await client.callTool({ name: "tool", arguments: {} })) as ToolResult;
  } finally {
    await client.close();
    restore?.();
    restore = undefined;
  }
}

/** What the model reads of a result: the text of every text block. */
function read(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/**
 * The words of a text: runs of letters and digits. The request's credential is no word the model
 * must keep, nor the `Error:` label a catch-all puts before a message.
 */
function words(text: string): Set<string> {
  const found = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  for (const part of KEY.toLowerCase().split("-")) found.delete(part);
  found.delete("error");
  return found;
}

describe("the model never reads less than it did without the library", () => {
  it.each(fixtures)("$name", async (fixture) => {
    const before = read(await call(fixture, false));
    const result = await call(fixture, true);
    const after = read(result);
    expect(parseRateLimitedResult(result)).toBeDefined();
    const missing = [...words(before)].filter((word) => !words(after).has(word));
    expect(missing, `before: ${before}\nafter: ${after}`).toEqual([]);
    expect(after).not.toContain(KEY);
    // The text block still begins with the sentence a host that keeps only text reads.
    expect(parseRateLimitedText(result.content[0]?.text ?? "")).toBeDefined();
  });

  it("names the upstream's own limit after the author's", async () => {
    const fixture = fixtures[3] as Fixture;
    const result = await call(fixture, true);
    expect(result.content[0]?.text).toMatch(
      /^Rate limited by github\. Retry after \d+ seconds?\. The upstream calls this limit "search"\. The upstream said: "API rate limit exceeded for user ID 1\."$/,
    );
  });

  it("keeps the tool's recovery text after the rate_limited text, its credential redacted", async () => {
    const fixture = fixtures[2] as Fixture;
    const result = await call(fixture, true);
    expect(result.content).toHaveLength(2);
    expect(result.content[1]?.text).toContain("set FIRECRAWL_API_KEY to continue");
    expect(result.content[1]?.text).not.toContain(KEY);
  });

  it("leaves out a catch-all's text that only restates the library's own error", async () => {
    const result = await call(fixtures[0] as Fixture, true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: 'Rate limited by search. Retry after 37 seconds. The upstream said: "5 requests per second"',
      },
    ]);
  });
});
