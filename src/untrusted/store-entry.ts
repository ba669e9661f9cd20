// The one door for what a cooldown store hands back (the untrusted-data rules, the security guide). A
// store is data from outside (a shared Redis anyone on the network may write to, a custom store
// with bugs): every entry is checked and clamped on every read, and an invalid one is ignored,
// never thrown.

import { isObject } from "../internal/is-object.js";
import type { LimitSource } from "./limit-name.js";
import { cleanLimitName } from "./limit-name.js";
import type { SecretMatcher } from "./secrets.js";

/** A store entry made safe: what the cooldown answers a call with. */
export interface ActiveCooldown {
  limit: string;
  limitSource: LimitSource;
  status: number;
  /** Time left, in milliseconds: more than 0, at most the clamp. */
  remainingMs: number;
  resetsAt?: Date;
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

/** The fields of something shaped like a cooldown entry (types only, nothing clamped yet). */
export interface EntryShape {
  until: number;
  limit: string;
  limitSource: LimitSource;
  status: number;
  resetsAt: number | undefined;
}

/**
 * Whether `raw` is shaped like a cooldown entry, and its fields: the one rule, for the guard's
 * read and for what a Redis view takes in. A `message`, never written now, must still be text.
 */
export function entryShape(raw: unknown): EntryShape | undefined {
  if (!isObject(raw)) return undefined;
  const { until, limit, limitSource, status, resetsAt, message } = raw;
  if (typeof until !== "number" || !Number.isFinite(until)) return undefined;
  if (typeof limit !== "string" || !LIMIT_SOURCES.has(limitSource)) return undefined;
  if (!(Number.isInteger(status) && (status as number) >= 400 && (status as number) < 600))
    return undefined;
  if (message !== undefined && typeof message !== "string") return undefined;
  if (resetsAt !== undefined && (typeof resetsAt !== "number" || !Number.isFinite(resetsAt)))
    return undefined;
  return {
    until,
    limit,
    limitSource: limitSource as LimitSource,
    status: status as number,
    resetsAt: resetsAt as number | undefined,
  };
}

/**
 * The cooldown an entry stands for; `"expired"` when it is over; `"invalid"` when it is not a
 * cooldown entry at all (to be ignored and reported). A stored message is never answered with:
 * the entry is shared by every caller of its partition.
 */
export function readStoreEntry(
  raw: unknown,
  context: EntryContext,
): ActiveCooldown | "expired" | "invalid" {
  const shape = entryShape(raw);
  if (shape === undefined) return "invalid";
  const { until, limit, limitSource, status, resetsAt } = shape;
  const left = until - context.now;
  if (left <= 0) return "expired";
  // Nothing this library writes outlives the clamp: an entry that does was planted (or written
  // by a replica with a longer `maxRetryAfterSeconds`), and would lock callers out past it.
  if (left > context.maxMs + CLOCK_SLACK_MS) return "invalid";
  const remainingMs = Math.ceil(Math.min(left, context.maxMs));
  const cooldown: ActiveCooldown = { ...nameOf(limit, limitSource, context), status, remainingMs };
  // An absolute reset time only when it agrees with the (unclamped) time left.
  if (resetsAt !== undefined && left <= context.maxMs && Math.abs(resetsAt - until) <= 1000) {
    cooldown.resetsAt = new Date(resetsAt);
  }
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
