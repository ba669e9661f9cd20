// The guard every wrapper uses when `cooldown` is on: look before calling, remember after a
// throttle. The store is never trusted to be up: a failure or a slow answer lets the call
// through (fail open) and is reported once per outage.

import { UpstreamRateLimitedError } from "../errors.js";
import { sha256, toHex } from "../internal/hmac.js";
import { nonNegative } from "../options.js";
import { CREDENTIAL_HEADERS } from "../redact.js";
import { MemoryCooldownStore } from "./memory.js";
import type { CooldownEntry, CooldownStore } from "./store.js";

export interface CooldownOptions<Partition> {
  /** Where throttles are remembered. @default a MemoryCooldownStore per wrapper */
  store?: CooldownStore;
  /**
   * Which caller a request belongs to; throttles are remembered per partition. @default a
   * SHA-256 of the request's credential headers, so one user's throttle never blocks another's
   */
  partition?: Partition;
  /** Told of a store failure once per outage; the call itself goes on to the upstream. */
  onStoreError?: (error: unknown) => void;
  /** Longest wait for the store before going on without it, in milliseconds. @default 250 */
  storeTimeoutMs?: number;
}

/** `cooldown: true` for the in-memory default, or the options. */
export type CooldownOption<Partition> = boolean | CooldownOptions<Partition>;

export class Cooldown {
  readonly #store: CooldownStore;
  readonly #onStoreError: ((error: unknown) => void) | undefined;
  readonly #timeoutMs: number;
  #failing = false;

  constructor(options: CooldownOptions<unknown>) {
    if (
      options.store !== undefined &&
      (typeof options.store.get !== "function" || typeof options.store.set !== "function")
    ) {
      throw new TypeError("`cooldown.store` must have `get` and `set`");
    }
    if (options.onStoreError !== undefined && typeof options.onStoreError !== "function") {
      throw new TypeError("`cooldown.onStoreError` must be a function");
    }
    this.#store = options.store ?? new MemoryCooldownStore();
    this.#onStoreError = options.onStoreError;
    this.#timeoutMs = nonNegative("cooldown.storeTimeoutMs", options.storeTimeoutMs ?? 250);
  }

  /** The throttle still in force for `key`, with the time actually remaining, or nothing. */
  async active(key: string): Promise<UpstreamRateLimitedError | undefined> {
    const entry = await this.#attempt(() => this.#store.get(key));
    const remaining = entry === undefined ? 0 : entry.until - Date.now();
    if (entry === undefined || remaining <= 0) return undefined;
    return new UpstreamRateLimitedError({
      limit: entry.limit,
      limitSource: entry.limitSource,
      status: entry.status,
      retryAfterMs: Math.ceil(remaining),
      retryAfterSeconds: Math.ceil(remaining / 1000),
      resetsAt: entry.resetsAt === undefined ? undefined : new Date(entry.resetsAt),
      delaySource: "cooldown",
      upstreamMessage: entry.message,
    });
  }

  /** Remembers a throttle under `key` for as long as it asked to wait. */
  async remember(key: string, error: UpstreamRateLimitedError): Promise<void> {
    const ttlMs = error.retryAfterMs;
    if (ttlMs === undefined || ttlMs <= 0) return; // nothing known to wait for
    const entry: CooldownEntry = {
      until: Date.now() + ttlMs,
      limit: error.limit,
      limitSource: error.limitSource,
      status: error.status,
    };
    if (error.resetsAt !== undefined) entry.resetsAt = error.resetsAt.getTime();
    if (error.upstreamMessage !== undefined) entry.message = error.upstreamMessage;
    await this.#attempt(() => this.#store.set(key, entry, ttlMs));
  }

  /** Runs a store operation: an answer, or `undefined` after reporting why there is none. */
  async #attempt<T>(operation: () => T | Promise<T>): Promise<T | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const pending = operation();
      // A store that answers at once (the memory store) needs no timer.
      if (!isThenable(pending)) {
        this.#failing = false;
        return pending;
      }
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`cooldown store gave no answer within ${this.#timeoutMs} ms`)),
          this.#timeoutMs,
        );
      });
      const value = await Promise.race([pending, timeout]);
      this.#failing = false;
      return value;
    } catch (error) {
      this.#report(error);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Tells `onStoreError` of the first failure of an outage; a hook that throws is ignored. */
  #report(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    try {
      this.#onStoreError?.(error);
    } catch {
      // A hook that throws must not fail the call either.
    }
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** The guard for a wrapper's `cooldown` option, or nothing when it is off. */
export function cooldownFrom(option: CooldownOption<unknown> | undefined): Cooldown | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return new Cooldown({});
  if (typeof option !== "object" || option === null) {
    throw new TypeError("`cooldown` must be `true`, `false` or an options object");
  }
  if (option.partition !== undefined && typeof option.partition !== "function") {
    throw new TypeError("`cooldown.partition` must be a function");
  }
  return new Cooldown(option);
}

/**
 * The default partition: a SHA-256 of the credential headers, so neither the raw credential
 * nor anything that could be turned back into it is ever stored; "" for a request without one.
 */
export function credentialPartition(headers: Headers): string {
  const values: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value !== null) values.push(`${name}:${value}`);
  }
  return hashCredentials(values);
}

/** SHA-256 of `name:value` credential lines; "" when there are none. */
export function hashCredentials(lines: readonly string[]): string {
  return lines.length === 0 ? "" : toHex(sha256(new TextEncoder().encode(lines.join("\n"))));
}

/** The caller's `cooldown.partition`, else the wrapper's default. */
export function partitionFrom<Partition>(
  option: CooldownOption<Partition> | undefined,
  fallback: Partition,
): Partition {
  return (typeof option === "object" ? option.partition : undefined) ?? fallback;
}

/** The store key of a (limit, partition) pair. */
export function cooldownKey(limit: string, partition: string | undefined): string {
  return `${limit}|${partition ?? ""}`;
}
