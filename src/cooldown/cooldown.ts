// The guard every wrapper uses when `cooldown` is on: look before calling, remember after a
// throttle. The success path asks the store only whether the limit may be cooling down at all
// (`mayHave`, no I/O); the caller's partition is hashed and looked up only when it may. The
// store is never trusted to be up, nor to hold what was written: a failure, a slow answer or
// an invalid entry lets the call through (fail open) and is reported once per outage; a store
// known to be down is skipped at once until a probe finds it back (the breaker). A throttle this
// process has just seen is kept in front of a store a network away, so a write that timed out, or
// one the breaker skipped, still holds back this process's next calls into it.

import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { optionalFunction, timerMs } from "../internal/options.js";
import {
  type EventSource,
  emitEvent,
  storeErrorEvent,
  type ThrottleEventHook,
} from "../observability/events.js";
import { SecretMatcher } from "../untrusted/secrets.js";
import { type ActiveCooldown, readStoreEntry } from "../untrusted/store-entry.js";
import { monotonicNow } from "./clock.js";
import {
  type CooldownOption,
  type CooldownOptions,
  InvalidCooldownEntryError,
} from "./cooldown-options.js";
import { isThenable } from "./hooks.js";
import { KnownHits } from "./known-hits.js";
import { type CooldownLookup, keyOf, Lookup, type LookupCall } from "./lookup.js";
import { MemoryCooldownStore } from "./memory.js";
import { MIN_PARTITION_SECRET_LENGTH, Partitioner } from "./partition.js";
import type { CooldownEntry, CooldownStore } from "./store.js";
import { listenToStore } from "./store-events.js";
import { localAnswer, StoreGuard, type StoreOperation, storeTimeout } from "./store-guard.js";

export type {
  CooldownOption,
  CooldownOptions,
  SharedCooldownOptions,
} from "./cooldown-options.js";
export { InvalidCooldownEntryError } from "./cooldown-options.js";
export type { CooldownLookup, LookupCall } from "./lookup.js";

export interface GuardContext {
  source: EventSource;
  maxRetryAfterSeconds: number;
  onEvent: ThrottleEventHook | undefined;
}

/** Most throttles a guard keeps in front of its store (its own, seen in this process). */
const MAX_SEEN = 10_000;

/** The store of `cooldown: true`: one per process (isolate), made when first needed. */
let processStore: MemoryCooldownStore | undefined;

function processDefaultStore(): MemoryCooldownStore {
  processStore ??= new MemoryCooldownStore();
  return processStore;
}

export class Cooldown {
  readonly #store: CooldownStore;
  readonly #guard: StoreGuard;
  readonly #context: GuardContext;
  readonly partitioner: Partitioner;
  /**
   * The throttles this guard remembered, kept until they end: made at the first one, and never
   * for the in-process memory store (which answers at once from the same memory).
   */
  #seen: KnownHits | undefined;
  #invalid = false;

  constructor(options: CooldownOptions<unknown>, context: GuardContext) {
    const { store, partitionSecret } = options;
    if (
      store !== undefined &&
      (typeof store?.get !== "function" || typeof store.set !== "function")
    ) {
      throw new TypeError("`cooldown.store` must have `get` and `set`");
    }
    if (
      partitionSecret !== undefined &&
      (typeof partitionSecret !== "string" || partitionSecret.length < MIN_PARTITION_SECRET_LENGTH)
    ) {
      throw new TypeError(
        `\`cooldown.partitionSecret\` must be a string of at least ${MIN_PARTITION_SECRET_LENGTH} characters`,
      );
    }
    if (store?.shared !== false && store !== undefined) {
      if (partitionSecret === undefined && options.partition === undefined) {
        throw new TypeError(
          "`cooldown.store` is shared between processes: pass `cooldown.partitionSecret` (a secret " +
            "string, the same on every replica) so callers' partitions match across replicas and " +
            "cannot be reversed, or your own `cooldown.partition`",
        );
      }
    }
    this.#store = store ?? processDefaultStore();
    this.#guard = new StoreGuard(
      timerMs("cooldown.storeTimeoutMs", options.storeTimeoutMs, storeTimeout(store)),
      (error, operation) => this.#report(error, operation),
    );
    this.#context = context;
    listenToStore(this.#store, context.onEvent);
    this.partitioner = new Partitioner(partitionSecret);
  }

  /**
   * The lookup of one guarded call: its scope (the wrapper's limit, else the upstream's host)
   * and, only when asked, its partition (the caller's `cooldown.partition`, else a keyed hash
   * of the credentials, gathered once).
   */
  lookup(call: LookupCall): CooldownLookup {
    return new Lookup(call, this.partitioner);
  }

  /**
   * Whether a call may be cooling down at all, asked of the store without I/O and without
   * building anything: the success path. `host` gives the scope when there is no `limit`, and is
   * asked only when something at all is cooling down.
   */
  mayApply<A, B>(
    limit: string | undefined,
    host: (a: A, b: B) => string | undefined,
    a: A,
    b: B,
  ): boolean {
    if (limit !== undefined) return this.#mayHave(limit);
    return this.#mayHave(undefined) && this.#mayHave(host(a, b) ?? "upstream");
  }

  /**
   * The throttle still in force for this call (what was remembered, and the time actually
   * left), or nothing; at once when the store answers at once (the memory store, a Redis
   * view), else a promise. The door makes the error it answers with.
   */
  check(lookup: CooldownLookup): ActiveCooldown | undefined | Promise<ActiveCooldown | undefined> {
    const seen = this.#seenEntry(lookup);
    if (seen !== undefined) return this.#answer(lookup, seen);
    // A `partition` that throws fails like the store would: the call goes on, reported.
    const raw = this.#guard.attempt(
      "get",
      () => this.#store.get(keyOf(lookup)),
      () => localAnswer(this.#store, () => keyOf(lookup)),
    );
    return isThenable(raw)
      ? raw.then((entry) => this.#answer(lookup, entry))
      : this.#answer(lookup, raw);
  }

  /**
   * The store's `mayHave` (one that throws is asked the long way, as if it had none), or a
   * throttle of this scope kept in front of it.
   */
  #mayHave(scope: string | undefined): boolean {
    let may: boolean;
    try {
      may = this.#store.mayHave?.(scope) !== false;
    } catch {
      may = true;
    }
    return may || (this.#seen?.mayHave(scope) ?? false);
  }

  /** The throttle this guard remembered for the call's key, while it lasts. */
  #seenEntry(lookup: CooldownLookup): CooldownEntry | undefined {
    if (this.#seen === undefined) return undefined;
    try {
      return this.#seen.get(keyOf(lookup));
    } catch {
      // A `partition` that throws: the store's path reports it.
      return undefined;
    }
  }

  #answer(lookup: CooldownLookup, raw: unknown): ActiveCooldown | undefined {
    if (raw === undefined) return undefined;
    let read: ReturnType<typeof readStoreEntry>;
    try {
      read = readStoreEntry(raw, {
        now: monotonicNow(),
        maxMs: this.#context.maxRetryAfterSeconds * 1000,
        limit: lookup.limit,
        scope: lookup.scope,
        // Only a stored upstream name is checked against the credentials, and only when the
        // wrapper gave none of its own.
        secrets:
          lookup.limit === undefined
            ? (lookup.credentials?.().matcher() ?? SecretMatcher.EMPTY)
            : SecretMatcher.EMPTY,
      });
    } catch {
      // An entry built to throw (a getter, a proxy) is no entry.
      read = "invalid";
    }
    if (read === "expired") return undefined;
    if (read === "invalid") {
      this.#reportInvalid();
      return undefined;
    }
    this.#invalid = false;
    return read;
  }

  /**
   * Remembers a throttle for as long as the upstream asked to wait. A delay the upstream did
   * not state (the author's `defaultRetryAfterSeconds`, or none) is never remembered.
   */
  async remember(lookup: CooldownLookup, error: UpstreamRateLimitedError): Promise<void> {
    const ttlMs = error.retryAfterMs;
    if (ttlMs === undefined || ttlMs <= 0) return;
    if (error.delaySource === "default" || error.delaySource === "none") return;
    // The absolute end, so a write that reaches the store late still ends on time; no message:
    // the partition may hold many callers, and one caller's upstream text is not for the others.
    const entry: CooldownEntry = {
      until: monotonicNow() + ttlMs,
      limit: error.limit,
      limitSource: error.limitSource,
      status: error.status,
    };
    if (error.resetsAt !== undefined) entry.resetsAt = error.resetsAt.getTime();
    if (!(this.#store instanceof MemoryCooldownStore)) {
      try {
        this.#seen ??= new KnownHits(MAX_SEEN, monotonicNow);
        this.#seen.note(keyOf(lookup), entry);
      } catch {
        // A `partition` that throws: the store's path reports it.
      }
    }
    await this.#guard.attempt("set", () => this.#store.set(keyOf(lookup), entry, ttlMs));
  }

  #reportInvalid(): void {
    if (this.#invalid) return;
    this.#invalid = true;
    this.#report(
      new InvalidCooldownEntryError(
        "the cooldown store returned an entry that is not a valid cooldown; it was ignored",
      ),
      "entry",
    );
  }

  /** Tells the event hook; a hook that throws or rejects is ignored. */
  #report(error: unknown, operation: StoreOperation | "entry"): void {
    emitEvent(this.#context.onEvent, storeErrorEvent(error, this.#context.source, operation));
  }
}

/** The guard for a wrapper's `cooldown` option, or nothing when it is off. */
export function cooldownFrom(
  option: CooldownOption<unknown> | undefined,
  context: GuardContext,
): Cooldown | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return new Cooldown({}, context);
  if (typeof option !== "object" || option === null) {
    throw new TypeError("`cooldown` must be `true`, `false` or an options object");
  }
  optionalFunction("cooldown.partition", option.partition);
  return new Cooldown(option, context);
}
