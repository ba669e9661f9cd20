// The same MCP server over stdio, as a child process: bundled once (test/helpers/bundle.ts) and
// run with plain node, with UPSTREAM_URL and REFUSALS (a JSON array of
// in-band refusals for the first `tools/call` requests).

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createToolServer, type Refusal, refuseInBand, ServerGate } from "./server.js";

const gate = new ServerGate();
gate.refuse(...(JSON.parse(process.env.REFUSALS ?? "[]") as Refusal[]));
const transport = new StdioServerTransport();
await createToolServer(process.env.UPSTREAM_URL ?? "").connect(transport);
refuseInBand(transport, (message) => gate.take(message));
