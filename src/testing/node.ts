// "mcp-upstream-throttle/testing/node": the parts of the testing kit that need a Node HTTP
// server (`node:http`, also served by Deno and Bun; not by Workers or browsers).

/**
 * A real rate-limited HTTP upstream for tests (needs `node:http`).
 *
 * @module mcp-upstream-throttle/testing/node
 */

export type {
  FakeLimit,
  FakeUpstream,
  FakeUpstreamOptions,
  ThrottleStyle,
} from "./fake-upstream.js";
export { startFakeUpstream } from "./fake-upstream.js";
