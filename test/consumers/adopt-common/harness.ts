// What every adopt-* fixture shares: an upstream on port 0, an SDK client per server, and the
// count of lines the adoption changed.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A real node:http upstream on 127.0.0.1, port 0, counting requests by path. */
export async function startUpstream(route: Route) {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    req.resume();
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    total: () => [...hits.values()].reduce((a, b) => a + b, 0),
    reset: () => hits.clear(),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An SDK client connected in memory to `server` (an McpServer or a low-level Server). */
export async function clientOf(server: { connect(t: InMemoryTransport): Promise<void> }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "adopt-check", version: "1.0.0" });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

/** Lines of `after` not in `before` and the reverse, by longest common subsequence. */
export function changedLines(beforeFile: string, afterFile: string) {
  const a = readFileSync(beforeFile, "utf8").split("\n");
  const b = readFileSync(afterFile, "utf8").split("\n");
  const common: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = common[i] as number[];
      row[j] =
        a[i] === b[j]
          ? (common[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(common[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const kept = common[0]?.[0] ?? 0;
  const added = b.length - kept;
  const removed = a.length - kept;
  return { added, removed, changed: Math.max(added, removed) };
}

/** The rate_limited error object of a result, wherever the result put it. */
export function rateLimitedOf(result: unknown): Record<string, unknown> | undefined {
  const r = result as {
    structuredContent?: { error?: Record<string, unknown> };
    _meta?: Record<string, unknown>;
  };
  const error =
    r?.structuredContent?.error ??
    (r?._meta?.["mcp-upstream-throttle/error"] as Record<string, unknown> | undefined);
  return error?.type === "rate_limited" ? error : undefined;
}

/** Every text block of a result, joined: what a host that shows only text gives the model. */
export function modelReads(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] })?.content ?? [];
  return content
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/** The words the model read before that it no longer reads after (credentials aside). */
export function wordsLost(before: string, after: string, credentials: string[] = []): string[] {
  return before
    .split(/\s+/)
    .filter((word) => word !== "" && !credentials.some((secret) => word.includes(secret)))
    .filter((word) => !after.includes(word));
}
