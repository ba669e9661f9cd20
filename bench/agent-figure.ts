// npm run figure: one scripted agent task against a throttled local upstream, three ways.
//   (a) a server that answers "Try again later." (isError, no delay) + a host that retries;
//   (b) this library's server (throttledFetch with `cooldown`, withUpstreamThrottle) + that host;
//   (c) (b) with the host's client wrapped by `throttleAwareClient` from "./client".
// Everything is real and on 127.0.0.1: a node:http upstream with a fixed window, an SDK McpServer
// over Streamable HTTP (stateless), the SDK 1.x Client. Prints the table and writes
// docs/host-side-figure.svg; asserts nothing (figures are for people).

import { writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { throttleAwareClient } from "../src/client/index.js";
import { throttledFetch, withUpstreamThrottle } from "../src/index.js";

/** The task: this many searches, one after another, as an agent's steps. */
const STEPS = Number(process.env.FIGURE_STEPS ?? 20);
/** The upstream allows this many requests per fixed window. */
const LIMIT = 4;
const WINDOW_MS = 1000;
/** The host: after an error result, call again after this long, at most this many times. */
const HOST_RETRY_MS = 200;
const HOST_MAX_TRIES = 50;

interface Counts {
  upstreamRequests: number;
  upstream429s: number;
  mcpCalls: number;
  /** Error results the host's loop (the model) was handed. */
  errorsSeen: number;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A fixed-window API: 429 with `Retry-After` (whole seconds to the window's end) when spent. */
async function startUpstream(counts: Counts) {
  let start = 0;
  let used = 0;
  const server = createServer((_req, res) => {
    counts.upstreamRequests += 1;
    const now = Date.now();
    if (now - start >= WINDOW_MS) {
      start = now;
      used = 0;
    }
    if (used >= LIMIT) {
      counts.upstream429s += 1;
      const retryAfter = Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000));
      res.writeHead(429, { "content-type": "application/json", "retry-after": String(retryAfter) });
      res.end(JSON.stringify({ message: "Too many requests. Try again later." }));
      return;
    }
    used += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ hits: ["one hit"] }));
  });
  return { url: await listen(server), close: () => new Promise((r) => server.close(r)) };
}

type Kind = "plain" | "library";

/** The MCP server: one `search` tool over the upstream, written the plain way or with the library. */
function mcpServer(kind: Kind, upstreamUrl: string): McpServer {
  const server = new McpServer({ name: `figure-${kind}`, version: "1.0.0" });
  const config = { description: "Searches.", inputSchema: { query: z.string() } };
  if (kind === "plain") {
    server.registerTool("search", config, async ({ query }) => {
      const response = await fetch(`${upstreamUrl}/search?q=${encodeURIComponent(query)}`);
      if (!response.ok) {
        await response.body?.cancel();
        return { content: [{ type: "text", text: "Try again later." }], isError: true };
      }
      const { hits } = (await response.json()) as { hits: string[] };
      return { content: [{ type: "text", text: hits.join("\n") }] };
    });
    return server;
  }
  server.registerTool(
    "search",
    config,
    withUpstreamThrottle(async ({ query }) => {
      const response = await libraryFetch(`${upstreamUrl}/search?q=${encodeURIComponent(query)}`);
      const { hits } = (await response.json()) as { hits: string[] };
      return { content: [{ type: "text", text: hits.join("\n") }] };
    }),
  );
  return server;
}
// One per process, as a tool author writes it (the server is built per request).
const libraryFetch = throttledFetch({ limit: "search_rate_limit", cooldown: true });

async function startMcp(kind: Kind, upstreamUrl: string, counts: Counts) {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown =
      chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    if ((body as { method?: unknown } | undefined)?.method === "tools/call") counts.mcpCalls += 1;
    const server = mcpServer(kind, upstreamUrl);
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  return { url: `${await listen(http)}/mcp`, close: () => new Promise((r) => http.close(r)) };
}

/** The host's loop: each step is one search; an error result is retried, as models do. */
async function runTask(callTool: (query: string) => Promise<unknown>, counts: Counts) {
  for (let step = 0; step < STEPS; step += 1) {
    for (let tries = 1; ; tries += 1) {
      const result = (await callTool(`step ${step}`)) as { isError?: boolean };
      if (result.isError !== true) break;
      counts.errorsSeen += 1;
      if (tries >= HOST_MAX_TRIES) throw new Error(`step ${step} never succeeded`);
      await new Promise((resolve) => setTimeout(resolve, HOST_RETRY_MS));
    }
  }
}

interface Row extends Counts {
  label: string;
  wallMs: number;
}

async function scenario(label: string, kind: Kind, honour: boolean): Promise<Row> {
  const counts: Counts = { upstreamRequests: 0, upstream429s: 0, mcpCalls: 0, errorsSeen: 0 };
  const upstream = await startUpstream(counts);
  const mcp = await startMcp(kind, upstream.url, counts);
  const client = new Client({ name: "figure-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
  const host = honour ? throttleAwareClient(client, { maxWaitMs: 5_000, maxAttempts: 5 }) : client;
  const started = performance.now();
  try {
    await runTask((query) => host.callTool({ name: "search", arguments: { query } }), counts);
  } finally {
    await client.close();
    await mcp.close();
    await upstream.close();
  }
  return { label, ...counts, wallMs: performance.now() - started };
}

const COLUMNS = [
  ["upstreamRequests", "upstream requests"],
  ["upstream429s", "429s received"],
  ["mcpCalls", "tools/call to the server"],
  ["errorsSeen", "error results to the model"],
] as const;

function table(rows: Row[]): string {
  const header = `| host and server | ${COLUMNS.map(([, title]) => title).join(" | ")} | wall time |`;
  const rule = `|---|${COLUMNS.map(() => "---:").join("|")}|---:|`;
  const lines = rows.map(
    (row) =>
      `| ${row.label} | ${COLUMNS.map(([key]) => row[key]).join(" | ")} | ${(row.wallMs / 1000).toFixed(1)} s |`,
  );
  return [header, rule, ...lines].join("\n");
}

/** A grouped bar chart: one group per count, one bar per scenario; wall times in the legend. */
function svg(rows: Row[]): string {
  const colours = ["#c0392b", "#e67e22", "#27ae60"];
  const width = 640;
  const height = 330;
  const left = 40;
  const bottom = 290;
  const top = 90;
  const max = Math.max(...rows.flatMap((row) => COLUMNS.map(([key]) => row[key])), 1);
  const groupWidth = (width - left - 20) / COLUMNS.length;
  const barWidth = (groupWidth - 24) / rows.length;
  const y = (value: number) => bottom - ((bottom - top) * value) / max;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(summary(rows))}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="18" font-size="13" font-weight="bold">${STEPS} searches against an upstream allowing ${LIMIT} per ${WINDOW_MS / 1000} s</text>`,
    `<line x1="${left}" y1="${bottom}" x2="${width - 10}" y2="${bottom}" stroke="#333"/>`,
  ];
  rows.forEach((row, index) => {
    const y0 = 30 + index * 16;
    parts.push(
      `<rect x="${left}" y="${y0}" width="10" height="10" fill="${colours[index]}"/>`,
      `<text x="${left + 14}" y="${y0 + 9}">${escapeXml(row.label)}: wall time ${(row.wallMs / 1000).toFixed(1)} s</text>`,
    );
  });
  COLUMNS.forEach(([key, title], group) => {
    const x0 = left + group * groupWidth + 12;
    rows.forEach((row, index) => {
      const x = x0 + index * barWidth;
      const value = row[key];
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(value).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(bottom - y(value)).toFixed(1)}" fill="${colours[index]}"/>`,
        `<text x="${(x + barWidth / 2 - 1).toFixed(1)}" y="${(y(value) - 3).toFixed(1)}" text-anchor="middle">${value}</text>`,
      );
    });
    parts.push(
      `<text x="${(x0 + (groupWidth - 24) / 2).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${escapeXml(title)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** The chart in one sentence, for readers who cannot see it. */
function summary(rows: Row[]): string {
  return rows
    .map(
      (row) =>
        `${row.label}: ${COLUMNS.map(([key, title]) => `${row[key]} ${title}`).join(", ")}, ${(row.wallMs / 1000).toFixed(1)} s`,
    )
    .join("; ");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const rows = [
  await scenario('(a) "Try again later" + retrying host', "plain", false),
  await scenario("(b) this library's server + same host", "library", false),
  await scenario("(c) (b) + ./client throttleAwareClient", "library", true),
];
console.log(table(rows));
const out = new URL("../docs/host-side-figure.svg", import.meta.url);
await writeFile(out, svg(rows));
console.log(`\nwrote ${out.pathname}`);
