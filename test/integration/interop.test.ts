// The interop matrix: every cell is a real round trip. Servers: the 1.x SDK, the 2.x server
// package, fastmcp 4. Clients: the 1.x SDK, the 2.x client package. Transports: in memory,
// Streamable HTTP on 127.0.0.1, stdio (a real child process). Tools with and without an
// outputSchema. In every cell the client reads the throttle with parseRateLimitedResult,
// nothing throws, and the text is exact.

import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpClientTransportV2,
  InMemoryTransport as InMemoryTransportV2,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as InMemoryTransportV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRateLimitedResult, RATE_LIMITED_META_KEY } from "../../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "../../src/testing/node.js";
import { bundledScript } from "../helpers/bundle.js";
import { type HttpHost, hostV1, hostV2 } from "./interop/hosts.js";
import {
  createServerV1,
  createServerV2,
  LIMIT,
  TOOLS_FASTMCP,
  TOOLS_V1,
  TOOLS_V2,
} from "./interop/servers.js";

// Bundled once, started by each stdio cell with plain node.
let STDIO_SERVER: string;
const FROZEN = Date.parse("2026-11-29T12:00:00Z");
const EXPECTED_ERROR = {
  type: "rate_limited",
  retry_after_seconds: 60,
  limit: LIMIT,
  message: "This endpoint has been requested too many times. Try again later.",
};
const EXPECTED_TEXT = `Rate limited by ${LIMIT}. Retry after 60 seconds. The upstream said: ${JSON.stringify(EXPECTED_ERROR.message)}`;
/** Where each tool's error object must be: an outputSchema that rejects it moves it to _meta. */
const PLACEMENT: Record<string, "structuredContent" | "meta"> = {
  plain: "structuredContent",
  widened: "structuredContent",
  output_schema: "meta",
  array_output: "meta",
  returned_result: "structuredContent",
  user_error: "structuredContent",
};

type ServerKind = "v1" | "v2" | "fastmcp";
type ClientKind = "v1" | "v2";
type TransportKind = "in-memory" | "streamable-http" | "stdio";

interface AnyClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

let upstream: FakeUpstream;
const hosts: Partial<Record<"v1" | "v2", HttpHost>> = {};

beforeAll(async () => {
  STDIO_SERVER = await bundledScript(new URL("./interop/stdio-server.ts", import.meta.url));
  upstream = await startFakeUpstream({
    limits: { "/search": { limit: 0, windowMs: 60_000 } },
    now: () => FROZEN,
  });
  hosts.v1 = await hostV1(upstream.url);
  hosts.v2 = await hostV2(upstream.url);
});

afterAll(async () => {
  await hosts.v1?.close();
  await hosts.v2?.close();
  await upstream.close();
});

function newClient(kind: ClientKind): AnyClient {
  const info = { name: `interop-client-${kind}`, version: "1.0.0" };
  return (kind === "v1" ? new ClientV1(info) : new ClientV2(info)) as unknown as AnyClient;
}

async function connect(
  server: ServerKind,
  client: ClientKind,
  transport: TransportKind,
): Promise<AnyClient> {
  const mcp = newClient(client);
  if (transport === "in-memory") {
    const [clientSide, serverSide] =
      client === "v1"
        ? InMemoryTransportV1.createLinkedPair()
        : InMemoryTransportV2.createLinkedPair();
    const instance = server === "v1" ? createServerV1(upstream.url) : createServerV2(upstream.url);
    await (instance as { connect(transport: unknown): Promise<void> }).connect(serverSide);
    await mcp.connect(clientSide);
  } else if (transport === "streamable-http") {
    const url = (server === "v1" ? hosts.v1 : hosts.v2)?.url as URL;
    await mcp.connect(
      client === "v1" ? new HttpClientTransportV1(url) : new HttpClientTransportV2(url),
    );
  } else {
    const params = {
      command: process.execPath,
      args: [STDIO_SERVER, server],
      env: { ...(process.env as Record<string, string>), UPSTREAM_URL: upstream.url },
      stderr: "inherit" as const,
    };
    await mcp.connect(
      client === "v1" ? new StdioClientTransportV1(params) : new StdioClientTransportV2(params),
    );
  }
  return mcp;
}

interface Cell {
  server: ServerKind;
  client: ClientKind;
  transport: TransportKind;
  tools: readonly string[];
}

const cells: Cell[] = [];
for (const server of ["v1", "v2"] as const) {
  for (const client of ["v1", "v2"] as const) {
    for (const transport of ["in-memory", "streamable-http", "stdio"] as const) {
      cells.push({ server, client, transport, tools: server === "v1" ? TOOLS_V1 : TOOLS_V2 });
    }
  }
}
cells.push({ server: "fastmcp", client: "v1", transport: "stdio", tools: TOOLS_FASTMCP });

describe.each(cells)(
  "server $server × client $client × $transport",
  ({ server, client, transport, tools }) => {
    let mcp: AnyClient;

    beforeAll(async () => {
      mcp = await connect(server, client, transport);
      // After listTools the 1.x client validates structured content against output schemas.
      const listed = await mcp.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toStrictEqual([...tools].sort());
    });

    afterAll(async () => {
      await mcp?.close();
    });

    it.each(tools)(
      "tool %s: the client reads the throttle, and the text is exact",
      async (tool) => {
        const result = (await mcp.callTool({ name: tool, arguments: { query: "q" } })) as {
          content: unknown[];
          isError?: boolean;
          structuredContent?: unknown;
          _meta?: Record<string, unknown>;
        };
        expect(result.isError).toBe(true);
        expect(parseRateLimitedResult(result)).toStrictEqual(EXPECTED_ERROR);
        expect(result.content).toStrictEqual([{ type: "text", text: EXPECTED_TEXT }]);
        if (PLACEMENT[tool] === "meta") {
          expect(result.structuredContent).toBeUndefined();
          expect(result._meta?.[RATE_LIMITED_META_KEY]).toStrictEqual(EXPECTED_ERROR);
        } else {
          expect(result.structuredContent).toStrictEqual({ error: EXPECTED_ERROR });
        }
      },
    );
  },
);
