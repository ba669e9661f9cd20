// npm run bench:vendors: one tool call per vendor SDK at its DEFAULT retry settings against a
// loopback upstream that answers 429 (Retry-After: 1), with and without the recipe's fetch.
// Prints the upstream requests the call made, the time from the last request reaching the
// upstream to the tool's result, and the whole call. Figures for people; it asserts nothing.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import Anthropic from "@anthropic-ai/sdk";
import { Client as NotionClient } from "@notionhq/client";
import { Octokit } from "@octokit/rest";
import OpenAI from "openai";
import {
  parseRateLimitedResult,
  sdkFetch,
  throttledFetch,
  withUpstreamThrottle,
} from "../src/index.js";

let requests = 0;
let lastRequestAt = 0;
const server = createServer((_req, res) => {
  requests += 1;
  lastRequestAt = performance.now();
  res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
  res.end(
    JSON.stringify({ object: "error", status: 429, code: "rate_limited", message: "slow down" }),
  );
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const cases: [string, () => Promise<unknown>][] = [
  ["openai (defaults)", () => new OpenAI({ apiKey: "k", baseURL: url }).models.list()],
  [
    "openai, fetch: sdkFetch()",
    () => new OpenAI({ apiKey: "k", baseURL: url, fetch: sdkFetch() }).models.list(),
  ],
  [
    "@anthropic-ai/sdk (defaults)",
    () => new Anthropic({ apiKey: "k", baseURL: url }).models.list(),
  ],
  [
    "@anthropic-ai/sdk, fetch: sdkFetch()",
    () => new Anthropic({ apiKey: "k", baseURL: url, fetch: sdkFetch() }).models.list(),
  ],
  ["@notionhq/client (defaults)", () => new NotionClient({ auth: "k", baseUrl: url }).users.me({})],
  [
    "@notionhq/client, fetch: throttledFetch()",
    () =>
      new NotionClient({ auth: "k", baseUrl: url, fetch: throttledFetch({ limit: "n" }) }).users.me(
        {},
      ),
  ],
  [
    "@octokit/rest, request.fetch: throttledFetch()",
    () =>
      new Octokit({
        baseUrl: url,
        request: { fetch: throttledFetch({ limit: "g" }) },
      }).rest.users.getAuthenticated(),
  ],
];

for (const [name, call] of cases) {
  requests = 0;
  const tool = withUpstreamThrottle(
    async () => {
      await call();
      return { content: [] };
    },
    { limit: "api" },
  );
  const start = performance.now();
  const result = await tool();
  const end = performance.now();
  const throttled = parseRateLimitedResult(result) !== undefined;
  console.log(
    `${name.padEnd(48)} requests ${requests}  last request → result ${(end - lastRequestAt).toFixed(1).padStart(7)} ms  whole call ${(end - start).toFixed(1).padStart(7)} ms  ${throttled ? "rate_limited" : "NOT a throttle result"}`,
  );
}
server.close();
