// The client-side cooldown (docs/host-side.md): per limit of one server, and one for the server's
// own limit. A circuit breaker in three states: a throttled limit is open until its delay has
// passed (calls are answered here), then half-open (one call goes through as a probe while the
// others wait for it), then closed again by any answer that is not a throttle by that limit.
//
// Only a throttle that came structured (the error object in `structuredContent` or `_meta`,
// which the server's code builds) or thrown by the server opens a cooldown. One known only from
// its text, or from `{ error }` alone, may be content a tool relayed (a web page quoting the
// sentence): it is waited out or handed back like any throttle, but holds back no later call.

import type { AnswerShape } from "./answer.js";
import type { HostThrottleSource } from "./throttle.js";

export interface CooldownEntry {
  readonly layer: "tool" | "server";
  /** The `rate_limited` result's `limit`; absent for the outer layer. */
  readonly limit: string | undefined;
  readonly until: number;
  readonly shape: AnswerShape;
  /** Settles when the call probing this expired entry settles. */
  probe: Promise<void> | undefined;
  release: (() => void) | undefined;
}

export type Verdict =
  /** A limit this call maps to is still throttled; the longest time left. */
  | { kind: "cooling"; entry: CooldownEntry; leftMs: number }
  /** Another call is probing a limit this call maps to. */
  | { kind: "probing"; settled: Promise<void> }
  /** Call; this call probes `probes` (expired entries no one is probing yet). */
  | { kind: "go"; probes: CooldownEntry[] };

/** A throttle with a delay, as a call learned it. */
export interface Learned {
  layer: "tool" | "server";
  limit?: string | undefined;
  /** What the throttle was read from: a structured one is shared by every key. */
  source: HostThrottleSource;
  /** Clamped (RL-8) and > 0 to open the limit. */
  delayMs: number;
  shape: AnswerShape;
}

// Keys are the caller's (`callKey`) and limit names the server's: neither may grow the maps
// forever (a host keying by arguments, a server naming a new limit each time).
const MAX_ENTRIES = 1024;

export class HostCooldown {
  readonly #now: () => number;
  #server: CooldownEntry | undefined;
  readonly #limits = new Map<string, CooldownEntry>();
  /** callKey → the limits that throttled calls with that key. */
  readonly #keys = new Map<string, Set<string>>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** What a call with `key` may do now. `claim: false` calls without probing anything. */
  check(key: string | undefined, claim = true): Verdict {
    const entries = this.#entriesFor(key);
    const now = this.#now();
    let longest: CooldownEntry | undefined;
    for (const entry of entries) {
      if (entry.until > now && (longest === undefined || entry.until > longest.until)) {
        longest = entry;
      }
    }
    if (longest !== undefined)
      return { kind: "cooling", entry: longest, leftMs: longest.until - now };
    if (!claim) return { kind: "go", probes: [] };
    const probing = entries.find((entry) => entry.probe !== undefined);
    if (probing?.probe !== undefined) return { kind: "probing", settled: probing.probe };
    for (const entry of entries) {
      entry.probe = new Promise((resolve) => {
        entry.release = resolve;
      });
    }
    return { kind: "go", probes: entries };
  }

  /** After a call: its probes are done; a throttle with a delay opens its limit again. */
  settle(key: string | undefined, probes: readonly CooldownEntry[], throttled?: Learned): void {
    for (const entry of probes) {
      entry.release?.();
      entry.probe = undefined;
      entry.release = undefined;
      if (entry.layer === "server" && this.#server === entry) this.#server = undefined;
      else if (entry.limit !== undefined && this.#limits.get(entry.limit) === entry) {
        this.#limits.delete(entry.limit);
      }
    }
    if (throttled === undefined || throttled.delayMs <= 0) return;
    const structured = throttled.source === "structuredContent" || throttled.source === "_meta";
    if (throttled.layer === "tool" && !structured) return;
    const limit = throttled.limit;
    const entry: CooldownEntry = {
      layer: throttled.layer,
      limit,
      until: this.#now() + throttled.delayMs,
      shape: throttled.shape,
      probe: undefined,
      release: undefined,
    };
    if (throttled.layer === "server" || limit === undefined) {
      this.#server = entry;
      return;
    }
    this.#limits.delete(limit);
    this.#limits.set(limit, entry);
    dropOldest(this.#limits);
    if (key !== undefined) this.#map(key, limit);
  }

  #map(key: string, limit: string): void {
    const limits = new Set(
      [...(this.#keys.get(key) ?? [])].filter((name) => this.#limits.has(name)),
    );
    limits.add(limit);
    this.#keys.delete(key);
    this.#keys.set(key, limits);
    dropOldest(this.#keys);
  }

  #entriesFor(key: string | undefined): CooldownEntry[] {
    const entries = this.#server === undefined ? [] : [this.#server];
    for (const limit of (key === undefined ? undefined : this.#keys.get(key)) ?? []) {
      const entry = this.#limits.get(limit);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }
}

/** Keeps a map (in insertion order) to `MAX_ENTRIES`. */
function dropOldest(map: Map<string, unknown>): void {
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    map.delete(oldest);
  }
}
