// A strict bundler project. Options read from the environment are `T | undefined`, and every
// wrapper takes them as they are (undefined means the default, at run time too). A standalone
// callback without annotations must not get silent `any` parameters.
import assert from "node:assert/strict";
import {
  detectThrottle,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "mcp-upstream-throttle";
import { expectRateLimited } from "mcp-upstream-throttle/testing";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";

/** Settings as a config loader returns them: any of them may be missing. */
interface Settings {
  limit: string | undefined;
  defaultRetryAfterSeconds: number | undefined;
  maxRetryAfterSeconds: number | undefined;
  treat503AsThrottle: boolean | undefined;
  bodyTimeoutMs: number | undefined;
}
const env = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const settings: Settings = {
  limit: process.env.UPSTREAM_LIMIT,
  defaultRetryAfterSeconds: env("UPSTREAM_DEFAULT_RETRY_AFTER"),
  maxRetryAfterSeconds: env("UPSTREAM_MAX_RETRY_AFTER"),
  treat503AsThrottle: process.env.UPSTREAM_503 ? true : undefined,
  bodyTimeoutMs: env("UPSTREAM_BODY_TIMEOUT_MS"),
};

// `limit: string | undefined` alone, then every other option as `T | undefined`, for each.
const { limit, defaultRetryAfterSeconds, maxRetryAfterSeconds, treat503AsThrottle, bodyTimeoutMs } = settings;
const wire = { defaultRetryAfterSeconds, maxRetryAfterSeconds, treat503AsThrottle, bodyTimeoutMs };
const upstreamFetch = throttledFetch({ limit });
throttledFetch({ ...wire, fetch: undefined, cooldown: undefined, retry: undefined });
throttleInterceptor({ limit });
throttleInterceptor({ ...wire, cooldown: undefined });
detectThrottle({ status: 429, headers: {} }, { maxRetryAfterSeconds, treat503AsThrottle, now: undefined });

const annotated = withUpstreamThrottle(
  async ({ query }: { query: string }, extra: { signal: AbortSignal }) => {
    const response = await upstreamFetch(`${upstream.url}/search?q=${encodeURIComponent(query)}`, { signal: extra.signal });
    return { content: [{ type: "text" as const, text: await response.text() }] };
  },
  { limit },
);
withUpstreamThrottle(async () => ({ content: [] }), {
  defaultRetryAfterSeconds,
  maxRetryAfterSeconds,
  treat503AsThrottle,
  outputSchema: undefined,
  cooldown: undefined,
});

// The wrapper keeps an annotated callback's argument types.
// @ts-expect-error `query` is a string
void (() => annotated({ query: 1 }, { signal: AbortSignal.timeout(1000) }));

// An unannotated standalone callback: its parameters must be typed or rejected, never `any`.
// @ts-expect-error `extra.nonsense.deep` must not compile
void withUpstreamThrottle(async ({ query }, extra) => `${query} ${extra.nonsense.deep}`);

// At run time, undefined is each option's default.
const upstream = await startFakeUpstream({
  limits: { "/search": { limit: 0, windowMs: 60_000 } },
  now: () => Date.parse("2026-11-29T12:00:00Z"),
});
const result = await annotated({ query: "mcp" }, { signal: AbortSignal.timeout(5000) });
expectRateLimited(result, { limit: "127.0.0.1", retryAfterSeconds: 60, placement: "structuredContent" });
assert.equal(detectThrottle({ status: 429, headers: { "retry-after": "5" } }, { maxRetryAfterSeconds })?.retryAfterSeconds, 5);
await upstream.close();

console.log("strict-bundler: undefined options accepted by types and at run time, standalone callback not any: ok");
