// A jest test as a jest user writes it (typechecked here; jest's globals come from @types/jest).
// expectRateLimited is the framework-neutral check; no vitest type may leak into this program.
import { expectRateLimited, type RateLimitedExpectation } from "mcp-upstream-throttle/testing";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { LIMIT, searchTool } from "../src/search";

describe("searchTool", () => {
  it("reports the upstream's throttle as a rate_limited result", async () => {
    const upstream = await startFakeUpstream({ limits: { "/search": { limit: 0, windowMs: 60_000 } } });
    const expected: RateLimitedExpectation = { limit: LIMIT, retryAfterSeconds: 60 };
    const result = await searchTool(upstream.url)({ query: "mcp" });
    expect(() => expectRateLimited(result, expected)).not.toThrow();
    expect(result).toHaveProperty("isError", true);
    await upstream.close();
  });
});
