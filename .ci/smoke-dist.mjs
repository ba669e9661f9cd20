// After `npm run build`: the package as users import it, by name, in plain Node (no tsx).
// Every entry point loads and exports what the README documents. (That the main entry loads no
// optional peer is checked on the import graph by test/entry-points.test.ts.)

const entries = {
  "mcp-upstream-throttle": [
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
    "EVENT_CHANNELS",
  ],
  "mcp-upstream-throttle/zod": [
    "widenOutputShape",
    "RateLimitedErrorSchema",
    "RateLimitedStructuredContentSchema",
  ],
  "mcp-upstream-throttle/zod3": [
    "widenOutputShape",
    "RateLimitedErrorSchema",
    "RateLimitedStructuredContentSchema",
  ],
  "mcp-upstream-throttle/testing": ["toBeRateLimited", "expectRateLimited", "nockRateLimited"],
  "mcp-upstream-throttle/testing/node": ["startFakeUpstream"],
  "mcp-upstream-throttle/client": [
    "readThrottle",
    "parseRateLimitedText",
    "honorThrottles",
    "throttleAwareClient",
    "throttleAwareTools",
  ],
  "mcp-upstream-throttle/otel": ["openTelemetryHook", "instrumentThrottles"],
};
const loaded = {};
const missing = [];
for (const [entry, names] of Object.entries(entries)) {
  loaded[entry] = await import(entry);
  for (const name of names) if (!(name in loaded[entry])) missing.push(`${entry}: ${name}`);
}
if (missing.length > 0) {
  console.error(`dist smoke test failed: missing ${missing.join(", ")}`);
  process.exit(1);
}
const main = loaded["mcp-upstream-throttle"];
const result = main.rateLimitedResult({ limit: "search", retryAfterSeconds: 1 });
loaded["mcp-upstream-throttle/testing"].expectRateLimited(result, {
  limit: "search",
  retryAfterSeconds: 1,
});
const host = loaded["mcp-upstream-throttle/client"].readThrottle(result);
if (host?.layer !== "tool" || host.retryAfterMs !== 1000) {
  console.error(`dist smoke test failed: readThrottle gave ${JSON.stringify(host)}`);
  process.exit(1);
}
const counts = Object.entries(loaded).map(
  ([entry, module]) => `${entry} ${Object.keys(module).length}`,
);
console.log(`dist smoke test passed: ${counts.join(", ")} exports`);
