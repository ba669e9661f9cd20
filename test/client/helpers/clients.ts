// The official SDK clients, 1.x and 2.x, connected over Streamable HTTP or stdio (a real child
// process), with one way to call a tool that puts the options where each version takes them.

import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { bundledScript } from "../../helpers/bundle.js";
import type { Refusal, ToolName } from "./server.js";

export type ClientKind = "sdk-1.x" | "sdk-2.x";
export type TransportKind = "streamable-http" | "stdio";

/** What the tests use of either client; `callTool` takes each version's own arguments. */
export interface SdkClient {
  callTool(...args: unknown[]): Promise<unknown>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

const STDIO_SERVER = new URL("./stdio-server.ts", import.meta.url);

export interface Target {
  /** The Streamable HTTP endpoint. */
  url: string;
  /** For stdio: the upstream the child's tools call, and its planned refusals. */
  upstreamUrl: string;
  refusals?: Refusal[];
}

export async function connectClient(
  kind: ClientKind,
  transport: TransportKind,
  target: Target,
): Promise<SdkClient> {
  const info = { name: `host-test-${kind}`, version: "1.0.0" };
  const client = (kind === "sdk-1.x" ? new ClientV1(info) : new ClientV2(info)) as unknown as {
    connect(transport: unknown): Promise<void>;
  } & SdkClient;
  if (transport === "streamable-http") {
    const url = new URL(target.url);
    await client.connect(kind === "sdk-1.x" ? new HttpTransportV1(url) : new HttpTransportV2(url));
  } else {
    const params = {
      command: process.execPath,
      args: [await bundledScript(STDIO_SERVER)],
      env: {
        ...(process.env as Record<string, string>),
        UPSTREAM_URL: target.upstreamUrl,
        REFUSALS: JSON.stringify(target.refusals ?? []),
      },
      stderr: "inherit" as const,
    };
    await client.connect(
      kind === "sdk-1.x" ? new StdioTransportV1(params) : new StdioTransportV2(params),
    );
  }
  return client;
}

/** `callTool` arguments: 1.x takes `(params, resultSchema?, options?)`, 2.x `(params, options?)`. */
export function callArgs(
  kind: ClientKind,
  name: ToolName,
  options: { signal?: AbortSignal } = {},
): unknown[] {
  const params = { name, arguments: { query: "rate limits" } };
  return kind === "sdk-1.x" ? [params, undefined, options] : [params, options];
}
