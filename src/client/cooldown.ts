// The client-side cooldown (the host-side guide): per limit of one tool (the call's key) on one server,
// and one for the server's own limit. One cooldown is one server's: an adapter keeps one per
// server it can tell apart (an SDK client, a transport, a `serverId`), and one per tool where it
// cannot (a merged tool set), so a server's refusal never holds back another server's tools. A circuit breaker in three states: a throttled limit is
// open until its delay has passed (calls are answered here), then half-open (one call goes
// through as a probe while the others wait for it), then closed again by any answer that is not
// a throttle by that limit.
//
// Keyed by tool and limit, never by limit alone (the security guide): the limit is named by a tool's
// upstream, so a limit named by one tool's upstream must never hold back another tool.
//
// Only a throttle that came structured (the error object in `structuredContent` or `_meta`,
// which the server's code builds) or thrown by the server opens a cooldown. One known only from
// its text, or from `{ error }` alone, may be content a tool relayed (a web page quoting the
// sentence): it is waited out or handed back like any throttle, but holds back no later call.
//
// Expiries are read on a monotonic clock (`performance.now`): a wall-clock step (NTP, a VM
// resumed) neither extends nor cuts a cooldown.

import { monotonicNow } from "../internal/monotonic.js";
import type { AnswerShape } from "./answer.js";
import type { HostThrottleSource } from "./host-throttle.js";

export interface CooldownEntry {
  readonly layer: "tool" | "server";
  /** The call key the entry holds back; absent for the outer layer. */
  readonly key: string | undefined;
  /** The `rate_limited` result's `limit`; absent for the outer layer. */
  readonly limit: string | undefined;
  readonly until: number;
  readonly shape: AnswerShape;
  /** The call probing this expired entry, if one is. */
  probe: Probe | undefined;
}

/** One call sent to find out whether an expired limit still throttles. */
export interface Probe {
  /** Settles when the probe settles, or when another call takes over from it. */
  readonly settled: Promise<void>;
  readonly release: () => void;
  /** When it was sent (monotonic): after `PROBE_HOLD_MS` the next call probes in its place. */
  readonly startedAt: number;
}

/**
 * Longest time other calls wait for one probe. A probe that never settles (a hung server, a
 * transport that lost the answer) would otherwise hold every later call of the tool for as long
 * as it hangs, each spending its whole budget.
 */
export const PROBE_HOLD_MS = 5000;

export type Verdict =
  /** A limit this call maps to is still throttled; the longest time left. */
  | { kind: "cooling"; entry: CooldownEntry; leftMs: number }
  /** Another call is probing a limit this call maps to, for `holdLeftMs` more at most. */
  | { kind: "probing"; entry: CooldownEntry; settled: Promise<void>; holdLeftMs: number }
  /** Call; this call probes `probes` (expired entries no one is probing, or whose hold ended). */
  | { kind: "go"; probes: Probing[] };

/** An entry this call probes, and the probe it is. */
export interface Probing {
  readonly entry: CooldownEntry;
  readonly probe: Probe;
}

/** A throttle with a delay, as a call learned it. */
export interface Learned {
  layer: "tool" | "server";
  limit?: string | undefined;
  /** What the throttle was read from: only a structured one opens a cooldown. */
  source: HostThrottleSource;
  /** Clamped (RL-8) and > 0 to open the limit. */
  delayMs: number;
  shape: AnswerShape;
}

// Keys are the caller's (`callKey`) and limit names the server's: neither may grow the maps
// forever (a host keying by arguments, a server naming a new limit each time).
const MAX_KEYS = 1024;
const MAX_LIMITS_PER_KEY = 16;

export class HostCooldown {
  readonly #now: () => number;
  #server: CooldownEntry | undefined;
  /** callKey → limit → the entry holding calls with that key back. */
  readonly #keys = new Map<string, Map<string, CooldownEntry>>();

  constructor(now: () => number = monotonicNow) {
    this.#now = now;
  }

  /** What a call with `key` may do now. */
  check(key: string | undefined): Verdict {
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
    for (const entry of entries) {
      const { probe } = entry;
      if (probe === undefined) continue;
      const holdLeftMs = probe.startedAt + PROBE_HOLD_MS - now;
      if (holdLeftMs > 0) {
        return { kind: "probing", entry, settled: probe.settled, holdLeftMs };
      }
      // The probe has hung past its hold: its waiters check again, and this call probes.
      probe.release();
    }
    return { kind: "go", probes: entries.map((entry) => this.#probe(entry, now)) };
  }

  #probe(entry: CooldownEntry, now: number): Probing {
    let release = () => {};
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const probe: Probe = { settled, release, startedAt: now };
    entry.probe = probe;
    return { entry, probe };
  }

  /** After a call: its probes are done; a throttle with a delay opens its limit again. */
  settle(key: string | undefined, probes: readonly Probing[], throttled?: Learned): void {
    for (const { entry, probe } of probes) {
      probe.release();
      // A probe another call took over from answers for itself only.
      if (entry.probe !== probe) continue;
      entry.probe = undefined;
      this.#drop(entry);
    }
    if (throttled === undefined || throttled.delayMs <= 0) return;
    const structured = throttled.source === "structuredContent" || throttled.source === "_meta";
    if (throttled.layer === "tool" && !structured) return;
    const server = throttled.layer === "server" || throttled.limit === undefined;
    // A tool-layer limit holds back calls with the same key only: with no key, nothing to hold.
    if (!server && key === undefined) return;
    const entry: CooldownEntry = {
      layer: throttled.layer,
      key: server ? undefined : key,
      limit: throttled.limit,
      until: this.#now() + throttled.delayMs,
      shape: throttled.shape,
      probe: undefined,
    };
    if (server) {
      this.#server = entry;
      return;
    }
    this.#open(key as string, throttled.limit as string, entry);
  }

  #open(key: string, limit: string, entry: CooldownEntry): void {
    const limits = this.#keys.get(key) ?? new Map<string, CooldownEntry>();
    // Re-inserted, so the maps' insertion order is the order of last use.
    this.#keys.delete(key);
    this.#keys.set(key, limits);
    limits.delete(limit);
    limits.set(limit, entry);
    dropOldest(limits, MAX_LIMITS_PER_KEY);
    dropOldest(this.#keys, MAX_KEYS);
  }

  #drop(entry: CooldownEntry): void {
    if (entry.layer === "server" || entry.key === undefined || entry.limit === undefined) {
      if (this.#server === entry) this.#server = undefined;
      return;
    }
    const limits = this.#keys.get(entry.key);
    if (limits?.get(entry.limit) !== entry) return;
    limits.delete(entry.limit);
    if (limits.size === 0) this.#keys.delete(entry.key);
  }

  #entriesFor(key: string | undefined): CooldownEntry[] {
    const entries = this.#server === undefined ? [] : [this.#server];
    const limits = key === undefined ? undefined : this.#keys.get(key);
    if (limits !== undefined) entries.push(...limits.values());
    return entries;
  }
}

/** Keeps a map (in insertion order) to `max` entries. */
function dropOldest(map: Map<string, unknown>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    map.delete(oldest);
  }
}
