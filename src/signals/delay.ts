import { isObject } from "../internal/is-object.js";
import { jsonRpcError } from "./body.js";
import {
  discordRetryAfterMs,
  googleRetryDelayMs,
  graphqlCostWaitMs,
  jsonRpcRetryAfterSecondsMs,
} from "./body-hints.js";
import { DelayContext } from "./delay-context.js";
import type { DelaySource } from "./delay-source.js";
import {
  ANTHROPIC_FIELDS,
  FAMILY_FIELDS,
  MS_RETRY_AFTER_MS,
  OPENAI_FIELDS,
  RATELIMIT,
  RATELIMIT_RESET,
  RESET_AFTER,
  RETRY_AFTER,
  RETRY_AFTER_MS,
  X_RATE_LIMIT_RESET,
  X_RATELIMIT_RESET,
  ZENDESK_FIELDS,
} from "./fields.js";
import { messageDelayMs } from "./message-delay.js";
import { familyReset, familyWindow, pairedReset } from "./quota-families.js";
import type { ResetValue } from "./reset.js";
import { httpDateMs, parseDeltaSeconds } from "./retry-after.js";
import {
  ANTHROPIC_QUOTAS,
  latestReset,
  OPENAI_QUOTAS,
  parseGoDuration,
  parseRfc3339,
  zendeskExhausted,
} from "./vendor-resets.js";

export type { DelaySource };
export { DelayContext };

export interface Delay {
  ms: number;
  source: DelaySource;
  resetsAt?: Date;
}

type DelayReader = (context: DelayContext) => Delay | undefined;

/** A header holding a plain decimal delay, in `unitMs` milliseconds per unit. */
function deltaHeader(
  name: "retry-after-ms" | "x-ms-retry-after-ms" | "x-ratelimit-reset-after",
  unitMs: number,
): DelayReader {
  return ({ headers }) => {
    const value = headers.get(name);
    const amount = value === undefined ? undefined : parseDeltaSeconds(value.trim());
    return amount === undefined ? undefined : { ms: Math.ceil(amount * unitMs), source: name };
  };
}

/** SEP-3304: `error.data.retryAfterMs` of a JSON-RPC error; RL-9 puts it above `Retry-After`. */
const jsonRpcRetryAfterMs: DelayReader = ({ body }) => {
  const data = jsonRpcError(body)?.data;
  const ms = isObject(data) ? data.retryAfterMs : undefined;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) return undefined;
  return { ms: Math.ceil(ms), source: "json-rpc-retry-after-ms" };
};

const retryAfter: DelayReader = (context) => {
  const value = context.headers.get("retry-after")?.trim();
  if (value === undefined) return undefined;
  const seconds = parseDeltaSeconds(value);
  if (seconds !== undefined) return { ms: Math.ceil(seconds * 1000), source: "retry-after" };
  const date = httpDateMs(value, context.now);
  return date === undefined ? undefined : absolute(date, "retry-after", context);
};

/** IETF `RateLimit` (draft-08 to -11 list, or draft-07 dictionary): `t` of the exhausted policy. */
const ietfRateLimit: DelayReader = (context) => {
  const seconds = context.policy()?.resetSeconds;
  return seconds === undefined ? undefined : { ms: seconds * 1000, source: "ratelimit" };
};

/**
 * A reset header in any of the units providers use (epoch ms, epoch s, delta s), one value or
 * one per policy (read with its remaining header: the exhausted policy's reset wins).
 */
function resetHeader(
  name: "ratelimit-reset" | "x-ratelimit-reset" | "x-rate-limit-reset",
  remaining: string,
): DelayReader {
  return (context) => {
    const reset = pairedReset(context.headers, name, remaining, context.now);
    return reset === undefined ? undefined : fromReset(reset, name, context);
  };
}

function fromReset(reset: ResetValue, source: DelaySource, context: DelayContext): Delay {
  if ("deltaMs" in reset) return { ms: reset.deltaMs, source };
  return absolute(reset.epochMs, source, context);
}

/** `x-…-ratelimit-…-reset` families (Linear, Sentry): the exhausted one's reset. */
const familyResetHeader: DelayReader = (context) => {
  const reset = familyReset(context.headers, context.now);
  return reset && fromReset(reset, "ratelimit-family-reset", context);
};

/** HubSpot: the window of a spent quota, when no reset is sent. */
const familyWindowHeader: DelayReader = ({ headers }) => {
  const ms = familyWindow(headers);
  return ms === undefined ? undefined : { ms, source: "ratelimit-family-window" };
};

/** OpenAI: the latest reset among the exhausted quotas, as Go durations. */
const openAiReset: DelayReader = ({ headers }) => {
  const reset = latestReset(headers, OPENAI_QUOTAS, parseGoDuration);
  return reset && { ms: reset.value, source: reset.header };
};

/** Anthropic: the latest reset among the exhausted quotas, as RFC 3339 times. */
const anthropicReset: DelayReader = (context) => {
  const reset = latestReset(context.headers, ANTHROPIC_QUOTAS, parseRfc3339);
  return reset && absolute(reset.value, reset.header, context);
};

/** Zendesk: the spent endpoint quota's `resets`. */
const zendeskReset: DelayReader = ({ headers }) => {
  const spent = zendeskExhausted(headers);
  return spent && { ms: spent.ms, source: "zendesk-endpoint-quota" };
};

function bodyHint(source: DelaySource, read: (body: unknown) => number | undefined): DelayReader {
  return ({ body }) => {
    const ms = read(body);
    return ms === undefined ? undefined : { ms, source };
  };
}

// A `Date` header has whole-second resolution and is stamped before the response travels, so
// a difference below this is noise, not skew.
const SKEW_THRESHOLD_MS = 2000;

/**
 * An absolute time from the upstream. When the response's `Date` shows the upstream's clock
 * off from ours, the wait is measured against the upstream's clock, so a skewed local clock
 * neither stretches nor shrinks it; `resetsAt` is that instant on this machine's clock.
 * A time in the past means no wait.
 */
function absolute(epochMs: number, source: DelaySource, context: DelayContext): Delay {
  const now = context.now;
  const serverNow = context.serverNow();
  const skewed = serverNow !== undefined && Math.abs(serverNow - now) > SKEW_THRESHOLD_MS;
  const ms = Math.max(0, Math.ceil(epochMs - (skewed ? serverNow : now)));
  return { ms, source, resetsAt: new Date(skewed ? now + ms : Math.max(epochMs, now)) };
}

/** A delay rule, and the fields it reads (`BODY`: none, it reads the body). */
interface Rule {
  needs: number;
  read: DelayReader;
}

const BODY = 0;
const rule = (needs: number, read: DelayReader): Rule => ({ needs, read });

/** The delay rules, in order of precedence: the first reader that finds a usable delay wins. */
const RULES: readonly Rule[] = [
  // 1. millisecond fields (SEP-3304 RL-9: retryAfterMs wins over Retry-After)
  rule(RETRY_AFTER_MS.bit, deltaHeader("retry-after-ms", 1)),
  rule(MS_RETRY_AFTER_MS.bit, deltaHeader("x-ms-retry-after-ms", 1)),
  rule(BODY, jsonRpcRetryAfterMs),
  // 2. Retry-After (the IETF RateLimit header fields draft: Retry-After wins over them)
  rule(RETRY_AFTER.bit, retryAfter),
  // 3. IETF rate-limit fields
  rule(RATELIMIT.bit, ietfRateLimit),
  // Zendesk's exhausted endpoint quota, before its account-wide `ratelimit-reset` (whose
  // quota may be far from spent): the endpoint's is the limit that tripped.
  rule(ZENDESK_FIELDS, zendeskReset),
  rule(RATELIMIT_RESET.bit, resetHeader("ratelimit-reset", "ratelimit-remaining")),
  // 4. reset headers
  rule(X_RATELIMIT_RESET.bit, resetHeader("x-ratelimit-reset", "x-ratelimit-remaining")),
  rule(X_RATE_LIMIT_RESET.bit, resetHeader("x-rate-limit-reset", "x-rate-limit-remaining")),
  rule(OPENAI_FIELDS, openAiReset),
  rule(ANTHROPIC_FIELDS, anthropicReset),
  rule(RESET_AFTER.bit, deltaHeader("x-ratelimit-reset-after", 1000)), // Discord: decimal seconds
  rule(FAMILY_FIELDS, familyResetHeader),
  rule(FAMILY_FIELDS, familyWindowHeader),
  // 5. known JSON bodies
  rule(BODY, bodyHint("body-retry-after", discordRetryAfterMs)),
  rule(BODY, bodyHint("google-retry-info", googleRetryDelayMs)),
  rule(BODY, bodyHint("json-rpc-retry-after-seconds", jsonRpcRetryAfterSecondsMs)),
  rule(BODY, bodyHint("graphql-cost", graphqlCostWaitMs)),
];

/**
 * The first usable delay of the rules, else the wait the upstream's message states in prose
 * (only a refusal's message is in the context).
 */
export function resolveDelay(context: DelayContext): Delay | undefined {
  // A rule whose fields are all absent has nothing to read.
  const fields = context.headers.fields;
  const hasBody = context.body !== undefined;
  for (const { needs, read } of RULES) {
    if (needs === BODY ? !hasBody : (needs & fields) === 0) continue;
    const delay = read(context);
    if (delay !== undefined && Number.isFinite(delay.ms) && delay.ms >= 0) return delay;
  }
  const ms =
    context.message === undefined ? undefined : messageDelayMs(context.message, context.echo);
  return ms === undefined ? undefined : { ms, source: "message" };
}
