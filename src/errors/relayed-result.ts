// A rate_limited result this process did not build: a tool that relays an upstream's JSON as its
// result can hand on a body shaped exactly like the library's own. Its fields are upstream values
// like any other, so they are read by the same rules: the delay clamped, the limit name through
// the limit-name door, the message through the message door with the request's credentials
// redacted, `resets_at` only within the clamp. What comes out is a throttle, which the wrapper
// turns into its own result.

import type { RateLimitedError } from "../contract/result.js";
import {
  DEFAULT_RATE_LIMITED_MESSAGE,
  isBuiltResult,
  parseRateLimitedResult,
  readRateLimitedError,
  unvouched,
} from "../contract/result.js";
import { DEFAULT_MAX_RETRY_AFTER_SECONDS } from "../internal/options.js";
import { mcpRequestCredentials } from "../untrusted/credentials.js";
import { cleanLimitName } from "../untrusted/limit-name.js";
import { cleanMessage } from "../untrusted/message.js";
import type { SecretMatcher } from "../untrusted/secrets.js";
import { UpstreamRateLimitedError, withoutFrames } from "./upstream-rate-limited-error.js";

/** What a relayed result is read with: the wrapper's clamp, the credentials to keep out, a clock. */
export interface RelayedReading {
  maxRetryAfterSeconds: number;
  secrets: SecretMatcher;
  now?: number | undefined;
}

/** The throttle a relayed rate_limited error object states, cleaned and clamped. */
export function relayedThrottle(
  error: RateLimitedError,
  { maxRetryAfterSeconds, secrets, now = Date.now() }: RelayedReading,
): UpstreamRateLimitedError {
  const name = cleanLimitName(error.limit, secrets);
  const seconds =
    error.retry_after_seconds === undefined
      ? undefined
      : Math.min(error.retry_after_seconds, maxRetryAfterSeconds);
  const message = cleanMessage(error.message, secrets);
  const resetsAt = error.resets_at === undefined ? undefined : new Date(error.resets_at);
  const inClamp =
    resetsAt !== undefined &&
    !Number.isNaN(resetsAt.getTime()) &&
    resetsAt.getTime() - now <= maxRetryAfterSeconds * 1000;
  return withoutFrames(
    () =>
      new UpstreamRateLimitedError({
        // No clean name: the wrapper's own `limit` names it, else this fallback.
        limit: name ?? "upstream",
        limitSource: name === undefined ? "host" : "upstream",
        status: 429,
        delaySource: seconds === undefined ? "none" : "rate-limited-result",
        ...(seconds === undefined ? {} : { retryAfterMs: seconds * 1000 }),
        ...(inClamp ? { resetsAt } : {}),
        ...(message === undefined || message === DEFAULT_RATE_LIMITED_MESSAGE
          ? {}
          : { upstreamMessage: message }),
      }),
  );
}

/**
 * The error object of a rate_limited result the library did not build (`vouched` may vouch for
 * a copy of one it did); `undefined` for its own results and for every other value. Never throws.
 */
export function relayedError(
  result: unknown,
  vouched?: (result: object) => boolean,
): RateLimitedError | undefined {
  try {
    const error = parseRateLimitedResult(result);
    if (error === undefined || isBuiltResult(result) || vouched?.(result as object))
      return undefined;
    return error;
  } catch {
    return undefined; // a result that cannot be read states no throttle
  }
}

/** What of a wrapper's settings reads a relayed result. */
export interface RelaySettings {
  maxRetryAfterSeconds: number;
  credentials: readonly string[];
  now?: Date | undefined;
}

/**
 * The throttle a rate_limited result the library did not build states, read with a wrapper's
 * settings and the credentials of the MCP request (`context`: the tool callback's last
 * argument); `undefined` for the library's own results and every other value.
 */
export function relayedThrottleOf(
  result: unknown,
  settings: RelaySettings,
  context: unknown,
  vouched?: (result: object) => boolean,
): UpstreamRateLimitedError | undefined {
  const error = relayedError(result, vouched);
  if (error === undefined) return undefined;
  const credentials = mcpRequestCredentials(context);
  credentials.known(settings.credentials);
  return relayedThrottle(error, {
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    secrets: credentials.matcher(),
    now: settings.now?.getTime(),
  });
}

/**
 * A relayed result a composing wrapper (`aggregateTool`, `fanOutTool`) was handed, rebuilt from
 * its cleaned fields with the defaults and the MCP request's credentials (`context`: the tool
 * callback's last argument), the error object where the relayed one had it; `undefined` for the
 * library's own results and every other value. It carries no mark: a wrapper further out (an
 * adopted server with a shorter clamp) reads it again by its own rules.
 */
export function rebuiltIfRelayed<Result>(result: Result, context: unknown): Result | undefined {
  const throttle = relayedThrottleOf(result, DEFAULTS, context);
  if (throttle === undefined) return undefined;
  const placement = inStructuredContent(result) ? "structuredContent" : "meta";
  return unvouched(() => throttle.toToolResult({ placement })) as unknown as Result;
}

const DEFAULTS: RelaySettings = {
  maxRetryAfterSeconds: DEFAULT_MAX_RETRY_AFTER_SECONDS,
  credentials: [],
};

function inStructuredContent(result: unknown): boolean {
  try {
    const structured = (result as { structuredContent?: { error?: unknown } }).structuredContent;
    return readRateLimitedError(structured?.error) !== undefined;
  } catch {
    return true;
  }
}
