// Serving the matrix's servers over Streamable HTTP on 127.0.0.1 (stateless: a server and a
// transport per request), for the 1.x SDK (node:http transport) and the 2.x server package
// (web-standard transport, bridged from node:http here).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { createServerV1, createServerV2 } from "./servers.js";

export interface HttpHost {
  url: URL;
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<HttpHost> {
  const http = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

export function hostV1(upstreamUrl: string): Promise<HttpHost> {
  return serveV1(() => createServerV1(upstreamUrl));
}

/** Serves a 1.x server made fresh for each request by `create` (stateless Streamable HTTP). */
export function serveV1(create: () => McpServer): Promise<HttpHost> {
  return listen(async (req, res) => {
    const server = create();
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
}

export function hostV2(upstreamUrl: string): Promise<HttpHost> {
  return listen(async (req, res) => {
    const server = createServerV2(upstreamUrl);
    const transport = new WebStandardStreamableHTTPServerTransport({});
    await server.connect(transport);
    const response = await transport.handleRequest(await toWebRequest(req));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
    await transport.close();
    await server.close();
  });
}

async function toWebRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
  return new Request(`http://127.0.0.1${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}
