// Cloudflare `agents` 0.32.0 in workerd (Miniflare 4.20260426.0, the Worker bundled by wrangler
// 4.86.0): an `Agent` Durable Object whose `this.mcp` (`MCPClientManager`) connects to server.mjs
// over Streamable HTTP on 127.0.0.1, and `throttleAwareClient(this.mcp).getAITools()`. The
// tools' `execute` is called as the AI SDK calls it; what it returns or throws is what the model
// is given. They go through the wait and the cooldown (events and server requests counted), in
// the shape `getAITools` gives any tool error (`execute` throws `Error(text)`), and the AI SDK's
// `abortSignal` ends a wait.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { startServers } from "./server.mjs";

const root = new URL("./", import.meta.url);
// The server's own cooldown answers its later calls with the time left.
// The server's 60-second window started a moment before: on a loaded machine a few seconds are gone.
// The sentence, then the upstream's own words when it gave any, quoted.
const LONG =
  /^Rate limited by lookup_rate_limit\. Retry after (5[5-9]|60) seconds\.(?: The upstream said: "(?:[^"\\]|\\.)*")?$/;
let servers;
let miniflare;
let url;

before(async () => {
  const wrangler = new URL("node_modules/.bin/wrangler", root).pathname;
  await promisify(execFile)(wrangler, ["deploy", "--dry-run", "--outdir", "dist"], {
    cwd: root.pathname,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    timeout: 120_000,
  });
  servers = await startServers();
  miniflare = new Miniflare({
    modules: true,
    modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
    scriptPath: new URL("dist/worker.js", root).pathname,
    compatibilityDate: "2026-04-26",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: { Host: { className: "Host", useSQLite: true } },
    host: "127.0.0.1",
    port: 0,
  });
  url = await miniflare.ready;
});
after(async () => {
  await miniflare?.dispose();
  await servers?.close();
});

/** Calls `method(...args)` on the Agent, through the Worker. */
async function agent(method, ...args) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify({ method, args }) });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("getAITools() of throttleAwareClient(this.mcp): the wait, the model's error shape, the cooldown, the abort", async () => {
  const connected = await agent("addServer", servers.url, "frameworks");
  assert.equal(connected.state, "ready");
  assert.deepEqual(connected.tools, ["tool_frameworks_lookup", "tool_frameworks_search"]);

  // What getAITools gives the model for any tool error, without the adapter: execute throws.
  const raw = await agent("run", "raw", "lookup");
  assert.equal(raw.error.class, "Error");
  assert.match(raw.error.message, LONG);

  // The short throttle (a second) is waited out within the 5 s budget.
  assert.equal((await agent("run", "view", "search")).ok, true);
  const short = await agent("run", "view", "search");
  assert.equal(short.ok, true, JSON.stringify(short));
  assert.deepEqual(short.events, ["throttle", "retry"]);
  assert.ok(short.ms >= 800 && short.ms < 5_000, `waited ${short.ms} ms`);

  // The long one (a minute) reaches the model as getAITools hands it any tool error.
  const long = await agent("run", "view", "lookup");
  assert.equal(long.error.class, "Error");
  assert.match(long.error.message, LONG);
  assert.deepEqual(long.events, ["throttle"]);

  // What the AI SDK makes of it for the model: the same error-text part, with or without the
  // adapter, and from the cooldown (no request reaches the server).
  const rawTurn = await agent("converse", "raw", "lookup");
  assert.equal(rawTurn.output.type, "error-text");
  assert.match(rawTurn.output.value, LONG);
  const toServer = servers.counts.toolCalls;
  const cooledTurn = await agent("converse", "view", "lookup");
  assert.equal(servers.counts.toolCalls, toServer, "the cooldown answered without a request");
  assert.deepEqual(cooledTurn.events, ["cooldown-hit"]);
  assert.equal(cooledTurn.output.type, "error-text");
  assert.match(
    cooledTurn.output.value,
    /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.(?: The upstream said: "(?:[^"\\]|\\.)*")?$/,
  );

  // The cooldown answers locally, in that same shape: no request reaches the server.
  const calls = servers.counts.toolCalls;
  const cooled = await agent("run", "view", "lookup");
  assert.equal(servers.counts.toolCalls, calls, "the cooldown answered without a request");
  assert.deepEqual(cooled.events, ["cooldown-hit"]);
  assert.equal(cooled.error.class, "Error");
  assert.match(
    cooled.error.message,
    /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.(?: The upstream said: "(?:[^"\\]|\\.)*")?$/,
  );

  // The AI SDK's abortSignal ends a wait: the second search within its second is throttled for
  // a second, and the host aborts after 100 ms.
  await sleep(1_100);
  assert.equal((await agent("run", "view", "search")).ok, true);
  const before = servers.counts.toolCalls;
  const stopped = await agent("run", "view", "search", { abortAfterMs: 100 });
  // The host's own reason, whether it ended the wait or (on a loaded machine, the server's answer
  // later than 100 ms) the request itself, which the SDK rethrows as its SdkError.
  assert.match(stopped.error.message, /^(Error: )?stopped by the host$/);
  assert.ok(stopped.ms < 800, `ended after ${stopped.ms} ms`);
  // No retry event: the wait was aborted, so no retry was sent.
  assert.deepEqual(stopped.events, ["throttle"]);
  // Had the wait gone on, its retry would have reached the server after the second.
  await sleep(1_200);
  assert.equal(servers.counts.toolCalls, before + 1, "the wait ended: no retry was sent");

  // One cooldown per server the manager holds: the first server's throttle of `lookup` does
  // not answer for a second server's `lookup`.
  const second = await agent("addServer", servers.url, "second");
  assert.ok(second.tools.includes("tool_second_lookup"), JSON.stringify(second));
  const toSecond = servers.counts.toolCalls;
  const other = await agent("run", "view", "lookup", { server: "second" });
  assert.equal(servers.counts.toolCalls, toSecond + 1, "the second server was asked");
  assert.deepEqual(other.events, ["throttle"]);
  assert.match(
    other.error.message,
    /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.(?: The upstream said: "(?:[^"\\]|\\.)*")?$/,
  );
  assert.deepEqual((await agent("run", "view", "lookup")).events, ["cooldown-hit"]);
});
