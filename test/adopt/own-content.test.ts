// What throttleServer keeps of a tool's own answer when it replaces it: the text blocks after
// the rate_limited text, cleaned of the request's credentials and of the `credentials` option;
// nothing it cannot clean (images, audio, resources, links), nothing that only restates the
// library's error, nothing of a result it cannot read.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownContent } from "../../src/adopt/own-content.js";
import { type ThrottleServerOptions, throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedText } from "../../src/client/text.js";
import { recognition } from "../../src/errors/recognize.js";
import { fetchCredentials } from "../../src/untrusted/credentials.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const TOKEN = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const OWN_KEY = "KEY-abcdef-0123456789-XYZ";

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": "9" });
    res.end(JSON.stringify({ error: { message: "Too many requests" } }));
  });
});
afterAll(() => upstream.close());

const limited = throttledFetch({ limit: "api" });
type Content = { type: string; [key: string]: unknown }[];

async function callWith(content: (text: string) => unknown, options?: ThrottleServerOptions) {
  const server = new McpServer({ name: "t", version: "1.0.0" });
  throttleServer(server, options);
  server.registerTool("tool", {}, async () => {
    let said = "";
    try {
      await limited(`${upstream.url}/v1/search?api_key=${TOKEN}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    } catch (error) {
      said = String(error);
    }
    return { content: content(said), isError: true } as never;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    return (await client.callTool({ name: "tool", arguments: {} })) as { content: Content };
  } finally {
    await client.close();
  }
}

const SENTENCE =
  'Rate limited by api. Retry after 9 seconds. The upstream said: "Too many requests"';

describe("the tool's own blocks after the rate_limited text", () => {
  it("keeps every text block, in order, after ours", async () => {
    const result = await callWith(() => [
      { type: "text", text: "Search failed." },
      { type: "text", text: "Upgrade at https://example.com/pricing to continue." },
    ]);
    expect(result.content).toStrictEqual([
      { type: "text", text: SENTENCE },
      { type: "text", text: "Search failed." },
      { type: "text", text: "Upgrade at https://example.com/pricing to continue." },
    ]);
  });

  it("redacts the credentials the throttled request carried", async () => {
    const result = await callWith(() => [
      { type: "text", text: `GET /v1/search?api_key=${TOKEN} failed (Bearer ${TOKEN})` },
    ]);
    const kept = result.content[1]?.text as string;
    expect(kept).toMatch(/^GET \/v1\/search\?\S+ failed \(Bearer \S+\)$/);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("redacts the `credentials` option's values too", async () => {
    const result = await callWith(() => [{ type: "text", text: `your key ${OWN_KEY} is spent` }], {
      credentials: [OWN_KEY],
    });
    expect(result.content[1]?.text).toContain("your key");
    expect(JSON.stringify(result)).not.toContain(OWN_KEY);
  });

  it("leaves out blocks it cannot clean: images, audio, resources, links", async () => {
    const result = await callWith(() => [
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: `https://x.test/?k=${TOKEN}`, text: TOKEN } },
      { type: "resource_link", uri: `https://x.test/?k=${TOKEN}`, name: "help" },
      { type: "text", text: "See the help page." },
    ]);
    expect(result.content).toStrictEqual([
      { type: "text", text: SENTENCE },
      { type: "text", text: "See the help page." },
    ]);
  });

  it.each([
    ["String(error) behind a catch-all's label", (said: string) => `Error: ${said}`],
    ["the message alone", (said: string) => said.replace(/^UpstreamRateLimitedError: /, "")],
    ["a framework's MCP error prefix", (said: string) => `MCP error -32603: ${said}`],
  ])("leaves out text that only restates the library's error: %s", async (_case, print) => {
    const result = await callWith((said) => [{ type: "text", text: print(said) }]);
    expect(result.content).toStrictEqual([{ type: "text", text: SENTENCE }]);
  });

  it("keeps text that says more than the library's error", async () => {
    const result = await callWith((said) => [
      { type: "text", text: `${said}. Set API_KEY for a higher quota.` },
    ]);
    expect(result.content).toHaveLength(2);
    expect(result.content[1]?.text).toContain("Set API_KEY for a higher quota.");
  });

  it("keeps nothing of a content it cannot read, and still answers", async () => {
    const hostile = [
      {
        type: "text",
        get text(): string {
          throw new Error("no");
        },
      },
    ];
    const result = await callWith(() => hostile);
    expect(result.content).toStrictEqual([{ type: "text", text: SENTENCE }]);
  });

  it("keeps the sentence first, so a host that keeps only text still reads it", async () => {
    const result = await callWith(() => [
      { type: "text", text: "Rate limited by evil. Retry after 999999 seconds." },
    ]);
    expect(parseRateLimitedText(result.content[0]?.text as string)).toStrictEqual({
      limit: "api",
      retryAfterSeconds: 9,
    });
  });
});

describe("a low-level Server's tools/call handler", () => {
  it("keeps the handler's own text after ours", async () => {
    const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "tool", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => {
      const response = await limited(upstream.url).catch(() => undefined);
      return {
        content: [{ type: "text", text: response ? "ok" : "Quota spent: try the cached tool." }],
        isError: true,
      };
    });
    throttleServer(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "t", version: "1.0.0" });
    await client.connect(clientSide);
    const result = (await client.callTool({ name: "tool", arguments: {} })) as {
      content: Content;
    };
    await client.close();
    expect(result.content).toStrictEqual([
      { type: "text", text: SENTENCE },
      { type: "text", text: "Quota spent: try the cached tool." },
    ]);
  });
});

describe("ownContent", () => {
  it("never keeps a credential of the request or of the option, whatever the tool wrote (property)", () => {
    const settings = recognition({ credentials: [OWN_KEY] });
    const request = () =>
      fetchCredentials(`https://api.test/v1?api_key=${TOKEN}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    const noted = { noted: new Error("throttled"), credentials: request, messages: [] };
    const secret = fc.constantFrom(TOKEN, OWN_KEY, encodeURIComponent(TOKEN), TOKEN.toUpperCase());
    fc.assert(
      fc.property(fc.string(), secret, fc.string(), (before, value, after) => {
        const kept = ownContent(
          { content: [{ type: "text", text: `${before}${value}${after}` }] },
          noted,
          settings,
        );
        for (const block of kept) {
          expect(block.text.toLowerCase()).not.toContain(TOKEN.toLowerCase());
          expect(block.text).not.toContain(OWN_KEY);
        }
      }),
    );
  });
});
