// After `npm run build`: the package as users import it, by name, in plain Node (no tsx).
// Both entry points load and export what the README documents. (That the main entry loads no
// optional peer is checked on the import graph by test/entry-points.test.ts.)

const main = await import("mcp-upstream-throttle");
const testing = {
  ...(await import("mcp-upstream-throttle/testing")),
  ...(await import("mcp-upstream-throttle/testing/node")),
};
const expected = {
  main: [
    "throttledFetch",
    "throttleInterceptor",
    "withUpstreamThrottle",
    "rateLimitedResult",
    "parseRateLimitedResult",
    "detectThrottle",
    "aggregateTool",
    "fanOutTool",
    "MemoryCooldownStore",
    "RedisCooldownStore",
    "UpstreamRateLimitedError",
  ],
  testing: ["toBeRateLimited", "expectRateLimited", "nockRateLimited", "startFakeUpstream"],
};
const missing = [
  ...expected.main.filter((name) => !(name in main)),
  ...expected.testing.filter((name) => !(name in testing)),
];
if (missing.length > 0) {
  console.error(`dist smoke test failed: missing ${missing.join(", ")}`);
  process.exit(1);
}
const result = main.rateLimitedResult({ limit: "search", retryAfterSeconds: 1 });
testing.expectRateLimited(result, { limit: "search", retryAfterSeconds: 1 });
console.log(
  `dist smoke test passed: ${Object.keys(main).length} exports, ${Object.keys(testing).length} testing exports`,
);
