// A stdio MCP server for the interop matrix, bundled by the test (test/helpers/bundle.ts) and run
// as `node <bundle> v1|v2|fastmcp`, with the upstream in UPSTREAM_URL.

import { StdioServerTransport as StdioServerTransportV1 } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StdioServerTransport as StdioServerTransportV2 } from "@modelcontextprotocol/server/stdio";
import { createFastMcp, createServerV1, createServerV2 } from "./servers.js";

const upstreamUrl = process.env.UPSTREAM_URL ?? "";
const kind = process.argv[2];
if (kind === "v1") await createServerV1(upstreamUrl).connect(new StdioServerTransportV1());
else if (kind === "v2") await createServerV2(upstreamUrl).connect(new StdioServerTransportV2());
else if (kind === "fastmcp") await createFastMcp(upstreamUrl).start({ transportType: "stdio" });
else throw new Error(`unknown server kind ${kind}`);
