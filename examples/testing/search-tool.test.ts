// A tool author's own test, written as you would write it in your project: the fake upstream
// throttles, the matcher checks the result. (Here the package resolves to its source.)

import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import "mcp-upstream-throttle/testing/vitest"; // registers and types expect(...).toBeRateLimited
import { type FakeUpstream, startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { beforeAll, expect, it } from "vitest";

// The tool under test: one upstream call, wrapped.
function searchTool(baseUrl: string) {
  const api = throttledFetch({ limit: "search" });
  return withUpstreamThrottle(async ({ query }: { query: string }) => {
    const response = await api(`${baseUrl}/search?q=${encodeURIComponent(query)}`);
    return { content: [{ type: "text" as const, text: await response.text() }] };
  });
}

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream({
    limits: { "/search": { limit: 1, windowMs: 60_000 } },
    now: () => 0,
  });
  return () => upstream.close();
});

it("reports the upstream's throttle as a rate_limited result", async () => {
  const search = searchTool(upstream.url);
  expect(await search({ query: "mcp" })).not.toBeRateLimited();
  expect(await search({ query: "mcp" })).toBeRateLimited({
    limit: "search",
    retryAfterSeconds: 60,
  });
});
