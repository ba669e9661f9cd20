// The real servers a host test file talks to: the rate-limited upstream and the MCP server over
// Streamable HTTP, started once per file, the upstream's windows and counts reset before each test.

import { afterAll, beforeAll, beforeEach } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../../../src/testing/node.js";
import { type McpHttpHost, startMcpHttp } from "./http-host.js";
import { UPSTREAM_LIMITS } from "./server.js";

export interface Servers {
  upstream: FakeUpstream;
  host: McpHttpHost;
}

/**
 * Starts the upstream and the HTTP server for the file. The fields are set when the file's tests
 * start: read them in hooks and tests, not while the suite is collected.
 */
export function useServers(): Servers {
  const servers = {} as Servers;
  beforeAll(async () => {
    servers.upstream = await startFakeUpstream({ limits: UPSTREAM_LIMITS });
    servers.host = await startMcpHttp(servers.upstream.url);
  });
  afterAll(async () => {
    await servers.host.close();
    await servers.upstream.close();
  });
  beforeEach(() => servers.upstream.reset());
  return servers;
}
