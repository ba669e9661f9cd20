// mcp-framework 0.2 (zod 3, its peer): a tool's returned value is flattened into one text block
// (isError lost), and a thrown error goes through the tool's `createErrorResponse`. So the
// recipe is a base class whose createErrorResponse turns a throttle into the result, in _meta
// when the tool declares an output schema; tools throw, as they would for any error.
import { MCPServer, MCPTool, type MCPInput } from "mcp-framework";
import { throttledFetch, toUpstreamRateLimitedError } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });

/** The recipe: every tool of the server extends this instead of MCPTool. */
abstract class ThrottledMCPTool extends MCPTool {
  protected override createErrorResponse(error: Error) {
    const throttle = toUpstreamRateLimitedError(error);
    if (throttle === undefined) return super.createErrorResponse(error);
    const placement = this.outputSchemaShape === undefined ? "structuredContent" : "meta";
    return throttle.toToolResult({ placement }) as ReturnType<MCPTool["createErrorResponse"]>;
  }
}

const schema = z.object({ query: z.string().describe("what to search") });

class PlainTool extends ThrottledMCPTool {
  name = "plain";
  description = "no output schema";
  schema = schema;
  async execute(input: MCPInput<this>) {
    await search(`${upstream.url}/search?q=${input.query}`);
    return input.query;
  }
}

class TypedTool extends ThrottledMCPTool {
  name = "typed";
  description = "an output schema";
  schema = schema;
  protected override outputSchemaShape = z.object({ hits: z.array(z.string()) });
  async execute(input: MCPInput<this>) {
    await search(`${upstream.url}/search?q=${input.query}`);
    return { hits: [input.query] };
  }
}

const server = new MCPServer({ name: "fw-mcp-framework", version: "1.0.0", logging: false });
server.addTool(PlainTool);
server.addTool(TypedTool);
const http = await serveFetch((request) => server.handleRequest(request));
try {
  await check("fw-mcp-framework", `${http.url}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
  });
} finally {
  await http.close();
  await upstream.close();
}
