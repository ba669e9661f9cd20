import { isObject } from "../internal/is-object.js";
import { jsonRpcError } from "./body.js";
import type { HeaderReader } from "./headers.js";
import { parseResetValue } from "./reset.js";
import { parseDeltaSeconds, parseHttpDate } from "./retry-after.js";

/** Where a delay came from, for logs. `default` is the tool author's configured fallback. */
export type DelaySource =
  | "retry-after-ms"
  | "x-ms-retry-after-ms"
  | "json-rpc-retry-after-ms"
  | "retry-after"
  | "x-ratelimit-reset"
  | "default"
  | "none";

export interface Delay {
  ms: number;
  source: DelaySource;
  resetsAt?: Date;
}

/** What every reader gets: the headers, the parsed body, and the clock. */
export interface DelayContext {
  headers: HeaderReader;
  body: unknown;
  now: number;
  /** The response's `Date` header in epoch ms, when it parsed. */
  serverNow: number | undefined;
}

type DelayReader = (context: DelayContext) => Delay | undefined;

function millisecondHeader(name: "retry-after-ms" | "x-ms-retry-after-ms"): DelayReader {
  return ({ headers }) => {
    const value = headers.get(name);
    const ms = value === undefined ? undefined : parseDeltaSeconds(value.trim());
    return ms === undefined ? undefined : { ms: Math.ceil(ms), source: name };
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
  const date = parseHttpDate(value, new Date(context.now));
  return date && absolute(date.getTime(), "retry-after", context);
};

const xRateLimitReset: DelayReader = (context) => {
  const value = context.headers.get("x-ratelimit-reset");
  const reset = value === undefined ? undefined : parseResetValue(value);
  if (reset === undefined) return undefined;
  if ("deltaMs" in reset) return { ms: reset.deltaMs, source: "x-ratelimit-reset" };
  return absolute(reset.epochMs, "x-ratelimit-reset", context);
};

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
  const { now, serverNow } = context;
  const skewed = serverNow !== undefined && Math.abs(serverNow - now) > SKEW_THRESHOLD_MS;
  const ms = Math.max(0, Math.ceil(epochMs - (skewed ? serverNow : now)));
  return { ms, source, resetsAt: new Date(skewed ? now + ms : Math.max(epochMs, now)) };
}

/** Precedence of design §4: the first reader that finds a usable delay wins. */
const READERS: readonly DelayReader[] = [
  millisecondHeader("retry-after-ms"),
  millisecondHeader("x-ms-retry-after-ms"),
  jsonRpcRetryAfterMs,
  retryAfter,
  xRateLimitReset,
];

export function resolveDelay(context: DelayContext): Delay | undefined {
  for (const read of READERS) {
    const delay = read(context);
    if (delay !== undefined && Number.isFinite(delay.ms) && delay.ms >= 0) return delay;
  }
  return undefined;
}
