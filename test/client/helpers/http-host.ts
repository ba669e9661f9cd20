// The MCP server over Streamable HTTP on 127.0.0.1 (stateless: a server and a transport per
// request). Planned refusals are answered before the transport with an HTTP 429 (the SEP-3304
// binding), or in band, over the transport, as a JSON-RPC error at HTTP 200.

import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { startServer } from "../../helpers/http-server.js";
import { createToolServer, refusalMessage, refuseInBand, ServerGate } from "./server.js";

export interface McpHttpHost {
  url: string;
  gate: ServerGate;
  close(): Promise<void>;
}

export async function startMcpHttp(upstreamUrl: string): Promise<McpHttpHost> {
  const gate = new ServerGate();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown =
      chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const refusal = gate.take(body);
    if (refusal?.status === 429) {
      res.writeHead(429, {
        "content-type": refusal.body === undefined ? "application/json" : "text/plain",
        // SEP-3304 RL-3. No SDK transport passes it on: the body's retryAfterMs decides (RL-9).
        "retry-after": "30",
      });
      const { id } = body as { id: string | number };
      res.end(refusal.body ?? JSON.stringify(refusalMessage(id, refusal)));
      return;
    }
    const server = createToolServer(upstreamUrl);
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    if (refusal !== undefined) refuseInBand(transport, () => refusal);
    await transport.handleRequest(req, res, body);
  };
  const http = await startServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  return { url: `${http.url}/mcp`, gate, close: () => http.close() };
}
