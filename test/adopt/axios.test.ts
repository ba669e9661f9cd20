import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import axios from "axios";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { throttleAxios } from "../../src/adopt/axios.js";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/limited")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "9" });
      res.end(JSON.stringify({ object: "error", code: "rate_limited", message: "Slow down." }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ results: [] }));
  });
});
afterAll(() => upstream.close());
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An OpenAPI-style proxy: tools registered in a loop, one catch-all that reports errors as data. */
function proxyServer(api: ReturnType<typeof axios.create>): McpServer {
  const server = new McpServer({ name: "proxy", version: "1.0.0" });
  for (const path of ["/limited", "/ok"]) {
    server.registerTool(`get${path.replace("/", "_")}`, {}, async () => {
      try {
        const response = await api.get(path);
        return { content: [{ type: "text", text: JSON.stringify(response.data) }] };
      } catch (error) {
        const data = axios.isAxiosError(error) ? error.response?.data : String(error);
        return { content: [{ type: "text", text: JSON.stringify({ status: "error", data }) }] };
      }
    });
  }
  return server;
}

async function call(server: McpServer, name: string) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client.callTool({ name, arguments: {} });
}

describe("throttleAxios", () => {
  it("control: without it, the proxy's catch-all reports the 429 as a success", async () => {
    const server = throttleServer(proxyServer(axios.create({ baseURL: upstream.url })));
    const result = await call(server, "get_limited");
    expect(result.isError).toBeUndefined();
    expect(parseRateLimitedResult(result)).toBeUndefined();
  });

  it("tells throttleServer of an AxiosError the tool caught", async () => {
    const api = throttleAxios(axios.create({ baseURL: upstream.url }), { limit: "notion" });
    const result = await call(throttleServer(proxyServer(api)), "get_limited");
    expect(parseRateLimitedResult(result)).toStrictEqual({
      type: "rate_limited",
      limit: "notion",
      retry_after_seconds: 9,
      message: "Slow down.",
    });
  });

  it("tells it of a 429 that validateStatus let through as a response", async () => {
    const api = throttleAxios(axios.create({ baseURL: upstream.url, validateStatus: () => true }));
    const result = await call(throttleServer(proxyServer(api), { limit: "notion" }), "get_limited");
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "notion",
      retry_after_seconds: 9,
    });
  });

  it("leaves a tool whose upstream answered as it was", async () => {
    const api = throttleAxios(axios.create({ baseURL: upstream.url }));
    const result = await call(throttleServer(proxyServer(api)), "get_ok");
    expect(result).toStrictEqual({ content: [{ type: "text", text: '{"results":[]}' }] });
  });

  it("rejects what is not an axios instance, by name", () => {
    expect(() => throttleAxios({} as never)).toThrow(/`instance` must be an axios instance/);
  });
});
