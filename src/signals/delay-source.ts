// Where a delay came from, as a name the library chose. It reaches events, diagnostics channels
// and telemetry attributes, so it is never a header name the upstream picked: a family of
// fields (`zendesk-ratelimit-<endpoint>`, `x-<vendor>-ratelimit-reset`) is named by the family.

/**
 * Every delay source there is, in order of precedence where a response holds several. The
 * fields with one fixed name are named by it; a family of fields by the family:
 * `zendesk-endpoint-quota` (`zendesk-ratelimit-<endpoint>`), `ratelimit-family-reset`
 * (`x-…-ratelimit-…-reset`: Linear, Sentry), `ratelimit-family-window` (`x-…-ratelimit-
 * interval-milliseconds`: HubSpot). `message` is a wait stated only in the upstream's own words;
 * `sdk-retry-after` a wait a vendor SDK's error carries without its headers (discord.js, Slack,
 * the AWS SDK's `retryAfterSeconds`); `cooldown` a throttle remembered from an earlier call;
 * `rate-limited-result` a tool result's `retry_after_seconds` (read by a host); `default` the
 * tool author's fallback; `none` nothing.
 */
export const DELAY_SOURCES = [
  "retry-after-ms",
  "x-ms-retry-after-ms",
  "json-rpc-retry-after-ms",
  "retry-after",
  "ratelimit",
  "zendesk-endpoint-quota",
  "ratelimit-reset",
  "x-ratelimit-reset",
  "x-rate-limit-reset",
  "x-ratelimit-reset-requests",
  "x-ratelimit-reset-tokens",
  "anthropic-ratelimit-requests-reset",
  "anthropic-ratelimit-tokens-reset",
  "anthropic-ratelimit-input-tokens-reset",
  "anthropic-ratelimit-output-tokens-reset",
  "x-ratelimit-reset-after",
  "ratelimit-family-reset",
  "ratelimit-family-window",
  "body-retry-after",
  "google-retry-info",
  "json-rpc-retry-after-seconds",
  "graphql-cost",
  "message",
  "sdk-retry-after",
  "cooldown",
  "rate-limited-result",
  "default",
  "none",
] as const;

/** Where a delay came from, for logs: one of `DELAY_SOURCES`. */
export type DelaySource = (typeof DELAY_SOURCES)[number];

const KNOWN: ReadonlySet<unknown> = new Set(DELAY_SOURCES);

/** Whether a value is one of the library's delay sources. */
export function isDelaySource(value: unknown): value is DelaySource {
  return KNOWN.has(value);
}
