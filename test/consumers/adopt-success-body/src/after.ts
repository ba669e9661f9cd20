// A chat workspace server whose tools hand the API's JSON back as it came: a 429 body
// ({"ok":false,"error":"ratelimited"}) reaches the model as a successful result.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { throttleGlobalFetch, throttleServer } from "mcp-upstream-throttle";
import { z } from "zod";

export function createChatServer(baseUrl: string): McpServer {
  const server = throttleServer(new McpServer({ name: "chat-workspace", version: "1.0.0" }), { cooldown: true });
  throttleGlobalFetch({ limit: "slack" });
  const headers = { authorization: "Bearer xoxb-test-token", "content-type": "application/json" };

  server.tool("list_channels", "List public channels", { limit: z.number().optional() }, async ({ limit }) => {
    const response = await fetch(`${baseUrl}/api/conversations.list?limit=${limit ?? 100}`, { headers });
    const data = await response.json();
    return { content: [{ type: "text", text: JSON.stringify(data) }] };
  });

  server.tool("post_message", "Post a message", { channel: z.string(), text: z.string() }, async (args) => {
    const response = await fetch(`${baseUrl}/api/chat.postMessage`, {
      method: "POST",
      headers,
      body: JSON.stringify(args),
    });
    const data = await response.json();
    return { content: [{ type: "text", text: JSON.stringify(data) }] };
  });
  return server;
}
