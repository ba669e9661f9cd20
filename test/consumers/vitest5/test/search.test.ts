// A tool author's vitest 5 test (Node 22 and 24): toBeRateLimited (registered by the setup file) on a real 2.x
// client's result, the upstream's throttle canned with nock 15.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { nockRateLimited } from "mcp-upstream-throttle/testing";
import nock from "nock";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createServer, LIMIT } from "../src/server.js";

const API = "http://127.0.0.1:4010";

beforeAll(() => nock.disableNetConnect());
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

it("reports nock's 429 as a rate_limited result that the matcher recognises", async () => {
  nockRateLimited(nock(API), /^\/search/, { retryAfter: 30 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer(API).connect(serverSide);
  const client = new Client({ name: "vitest-client", version: "1.0.0" });
  await client.connect(clientSide);
  const result = await client.callTool({ name: "search_structured", arguments: { query: "mcp" } });
  expect(result).toBeRateLimited({ limit: LIMIT, retryAfterSeconds: 30, placement: "structuredContent" });
  expect({ content: [{ type: "text", text: "fine" }] }).not.toBeRateLimited();
  await client.close();
});
