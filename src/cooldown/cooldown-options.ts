// What the `cooldown` option of every wrapper may hold, and the error an invalid store entry
// is reported with.

import type { CooldownStore } from "./store.js";

/**
 * The `cooldown` option of every wrapper, as an object: the store, how callers are told apart,
 * and how long to wait for the store.
 *
 * @typeParam Partition - The wrapper's own partition function (it gets the call's arguments).
 */
export interface CooldownOptions<Partition> extends SharedCooldownOptions {
  /**
   * Which caller a request belongs to; throttles are remembered per partition. @default a keyed
   * hash (HMAC-SHA-256) of the request's credentials, so one user's throttle never blocks another's
   */
  partition?: Partition | undefined;
}

/**
 * The cooldown options every wrapper takes alike, for one object shared between wrappers
 * (`throttledFetch`, `withUpstreamThrottle`, `throttleInterceptor`); each wrapper's own
 * `partition` has the shape of what it wraps.
 *
 * @example
 * const cooldown: SharedCooldownOptions = { store, partitionSecret: process.env.PARTITION_SECRET };
 * const api = throttledFetch({ limit: "search", cooldown });
 * const tool = withUpstreamThrottle(handler, { limit: "search", cooldown });
 */
export interface SharedCooldownOptions {
  /**
   * Where throttles are remembered.
   * @default one MemoryCooldownStore per process (isolate), shared by every wrapper in it
   */
  store?: CooldownStore | undefined;
  /**
   * The key of the partition hash, the same on every replica (at least 16 characters). Needed
   * with a store shared between processes (Redis); without it, a random key per process.
   * @default a random key for this process (isolate), made on first use
   */
  partitionSecret?: string | undefined;
  /**
   * Longest wait for the store before going on without it, in milliseconds. @default the store's
   * own `timeoutMs` (a remote store sets it above its round trip), else 250
   */
  storeTimeoutMs?: number | undefined;
}

/** `cooldown: true` for the in-memory default, or the options. */
export type CooldownOption<Partition> = boolean | CooldownOptions<Partition>;

/**
 * A store entry that is not a cooldown entry; reported as a `store-error` event (its
 * `errorName`, with `operation: "entry"`), never thrown.
 *
 * @example
 * ```ts
 * import { throttledFetch } from "mcp-upstream-throttle";
 *
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: true,
 *   onEvent: (event) => {
 *     if (event.type === "store-error" && event.errorName === "InvalidCooldownEntryError")
 *       console.warn("a bad entry was ignored");
 *   },
 * });
 * ```
 */
export class InvalidCooldownEntryError extends Error {
  /** Always `"InvalidCooldownEntryError"`. */
  override readonly name = "InvalidCooldownEntryError";
}
