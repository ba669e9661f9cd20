// The one door for what a cooldown store hands back (the untrusted-data rules, docs/security.md). A
// store is data from outside (a shared Redis anyone on the network may write to, a custom store
// with bugs): every entry is checked and clamped on every read, and an invalid one is ignored,
// never thrown.

import type { LimitSource } from "../errors.js";
import { isObject } from "../internal/is-object.js";
import { cleanLimitName } from "./limit-name.js";
import { cleanMessage } from "./message.js";
import type { SecretMatcher } from "./secrets.js";

/** A store entry made safe: what the cooldown answers a call with. */
export interface ActiveCooldown {
  limit: string;
  limitSource: LimitSource;
  status: number;
  /** Time left, in milliseconds: more than 0, at most the clamp. */
  remainingMs: number;
  resetsAt?: Date;
  message?: string;
}

export interface EntryContext {
  now: number;
  /** The clamp (SEP-3304 RL-8), in milliseconds. */
  maxMs: number;
  /** The name the wrapper gave the limit, which wins over anything stored. */
  limit: string | undefined;
  /** The scope the key was looked up under (the limit, else the upstream's host). */
  scope: string;
  secrets: SecretMatcher;
}

const LIMIT_SOURCES: ReadonlySet<unknown> = new Set(["option", "upstream", "host"]);

// Room for the time between a write and a read, and for clocks a little apart.
const CLOCK_SLACK_MS = 5000;

/**
 * The cooldown an entry stands for; `"expired"` when it is over; `"invalid"` when it is not a
 * cooldown entry at all (to be ignored and reported).
 */
export function readStoreEntry(
  raw: unknown,
  context: EntryContext,
): ActiveCooldown | "expired" | "invalid" {
  if (!isObject(raw)) return "invalid";
  const { until, limit, limitSource, status, resetsAt, message } = raw;
  if (typeof until !== "number" || !Number.isFinite(until)) return "invalid";
  if (typeof limit !== "string" || !LIMIT_SOURCES.has(limitSource)) return "invalid";
  if (!(Number.isInteger(status) && (status as number) >= 400 && (status as number) < 600))
    return "invalid";
  if (message !== undefined && typeof message !== "string") return "invalid";
  if (resetsAt !== undefined && (typeof resetsAt !== "number" || !Number.isFinite(resetsAt)))
    return "invalid";
  const left = until - context.now;
  if (left <= 0) return "expired";
  // Nothing this library writes outlives the clamp: an entry that does was planted (or written
  // by a replica with a longer `maxRetryAfterSeconds`), and would lock callers out past it.
  if (left > context.maxMs + CLOCK_SLACK_MS) return "invalid";
  const remainingMs = Math.ceil(Math.min(left, context.maxMs));
  const cooldown: ActiveCooldown = {
    ...nameOf(limit, limitSource as LimitSource, context),
    status: status as number,
    remainingMs,
  };
  // An absolute reset time only when it agrees with the (unclamped) time left.
  if (resetsAt !== undefined && left <= context.maxMs && Math.abs(resetsAt - until) <= 1000) {
    cooldown.resetsAt = new Date(resetsAt);
  }
  const text = message === undefined ? undefined : cleanMessage(message, context.secrets);
  if (text !== undefined) cooldown.message = text;
  return cooldown;
}

/** The wrapper's own name; else a stored upstream name that is still an identifier; else the scope. */
function nameOf(
  stored: string,
  source: LimitSource,
  context: EntryContext,
): { limit: string; limitSource: LimitSource } {
  if (context.limit !== undefined) return { limit: context.limit, limitSource: "option" };
  const upstream = source === "upstream" ? cleanLimitName(stored, context.secrets) : undefined;
  return upstream === undefined
    ? { limit: context.scope, limitSource: "host" }
    : { limit: upstream, limitSource: "upstream" };
}
