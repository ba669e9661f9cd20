// An OpenAPI-style proxy: one tool per operation of a spec, registered in a loop, every call
// sent through one axios instance. An HTTP error is handed back as data, as a success.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import axios from "axios";
import { throttleAxios, throttleServer } from "mcp-upstream-throttle";
import { z } from "zod";

interface Operation {
  operationId: string;
  method: "get" | "post";
  path: string;
}

const operations: Operation[] = [
  { operationId: "retrieve-a-page", method: "get", path: "/v1/pages/{id}" },
  { operationId: "query-a-database", method: "post", path: "/v1/databases/{id}/query" },
  { operationId: "search", method: "post", path: "/v1/search" },
];

export function createProxyServer(baseURL: string): McpServer {
  const server = throttleServer(new McpServer({ name: "api-proxy", version: "1.0.0" }), { cooldown: true });
  const http = throttleAxios(axios.create({ baseURL, headers: { authorization: "Bearer ntn_test_token" } }), { limit: "notion" });

  for (const op of operations) {
    server.registerTool(
      op.operationId,
      { description: `${op.method.toUpperCase()} ${op.path}`, inputSchema: { id: z.string().optional() } },
      async ({ id }) => {
        try {
          const url = op.path.replace("{id}", encodeURIComponent(id ?? ""));
          const response = await http.request({ method: op.method, url, data: op.method === "post" ? {} : undefined });
          return { content: [{ type: "text", text: JSON.stringify(response.data) }] };
        } catch (error) {
          if (axios.isAxiosError(error) && error.response) {
            const data = { status: "error", ...(error.response.data as object) };
            return { content: [{ type: "text", text: JSON.stringify(data) }] };
          }
          throw error;
        }
      },
    );
  }
  return server;
}
