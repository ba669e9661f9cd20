// Whether a RedisCooldownStore's view holds every active cooldown, and the loads that make it so.
// The view is loaded whole whenever its subscription starts or comes back, and after anything
// that may have lost announcements (a silent subscription, Redis back after an outage, a full
// view that has room again); a load made stale by a flap is followed by a fresh one. Loads read
// the index when the marker says it holds every entry and no older replica was heard lately,
// else the keyspace (redis-layout.ts). The view itself is kept across drops: entries end on
// their own, and Redis never ends one early.

import { monotonicNow } from "./clock.js";
import { isWrongType, type RedisHealth } from "./redis-health.js";
import type { Layout } from "./redis-layout.js";
import type { ViewLoader } from "./redis-loader.js";

/** No beat of its own heard for this long: the subscription is silent (half-open, or behind). */
export const SILENT_MS = 1500;
const RETRY_LOAD_MS = 1000;

export class ViewSync {
  /** The subscription is made (and not known to have dropped). */
  subscribed = false;
  /** Our own beats stopped coming back: the subscription is half-open, or the loop was stalled. */
  silent = false;
  /** The view holds every active cooldown: loaded since the subscription was last made. */
  loaded = false;
  /** Since when the subscription carries messages without a break (drop or silence). */
  hearingSince = Number.POSITIVE_INFINITY;
  /** Changes whenever the subscription drops: a load then stops. */
  generation = 0;
  #lastBeat = monotonicNow();
  #loading = false;
  #reloadWanted = false;
  readonly #health: RedisHealth;
  readonly #loader: ViewLoader;
  readonly #layout: () => Layout;

  constructor(health: RedisHealth, loader: ViewLoader, layout: () => Layout) {
    this.#health = health;
    this.#loader = loader;
    this.#layout = layout;
  }

  /** The subscription is made (again): load the view. */
  up(): void {
    if (this.#health.closed) return;
    this.subscribed = true;
    this.silent = false;
    this.#lastBeat = monotonicNow();
    this.hearingSince = this.#lastBeat;
    this.reload();
  }

  down(error?: unknown): void {
    this.generation += 1;
    this.subscribed = false;
    this.hearingSince = Number.POSITIVE_INFINITY;
    this.loaded = false;
    if (error !== undefined && !this.#health.closed) this.#health.report(error);
  }

  /** A beat of our own came back: the subscription carries messages (again). */
  heard(): void {
    this.#lastBeat = monotonicNow();
    if (!this.silent) return;
    // What was announced while it was silent may be lost: load again.
    this.silent = false;
    this.hearingSince = this.#lastBeat;
    this.reload();
  }

  /** At every beat: our own beats stopped coming back, the subscription is silent. Ask Redis. */
  checkSilence(): void {
    if (!this.subscribed || this.silent || monotonicNow() - this.#lastBeat <= SILENT_MS) return;
    this.silent = true;
    this.hearingSince = Number.POSITIVE_INFINITY;
    this.#health.report(
      new Error(
        "the cooldown subscription went silent or fell behind (its own beat unheard for 1.5 s); asking Redis",
      ),
    );
  }

  /** What the view holds may be incomplete: load it again (when the subscription is up). */
  reload(): void {
    this.loaded = false;
    if (this.subscribed) this.#sync();
  }

  #sync(): void {
    if (this.#loading) {
      this.#reloadWanted = true;
      return;
    }
    this.#loading = true;
    this.#reloadWanted = false;
    const generation = this.generation;
    this.#load(generation).then(
      () => this.#loadEnded(generation, undefined),
      (error: unknown) => this.#loadEnded(generation, error ?? new Error("load failed")),
    );
  }

  #loadEnded(generation: number, error: unknown): void {
    this.#loading = false;
    if (this.#health.closed) return;
    const current = generation === this.generation && this.subscribed;
    if (current && error === undefined && !this.#reloadWanted) {
      this.loaded = true;
      return;
    }
    if (this.#reloadWanted) {
      this.#sync();
      return;
    }
    if (!this.subscribed) return;
    if (error !== undefined) this.#health.report(error);
    // The subscription is up but the view is not: try again, asking Redis meanwhile.
    const retry = setTimeout(
      () => this.subscribed && !this.#loading && this.#sync(),
      RETRY_LOAD_MS,
    );
    (retry as { unref?: () => void }).unref?.();
  }

  /**
   * Loads every active cooldown: from the index when it holds them all, else from the keyspace.
   * Announcements meanwhile are kept; calls meanwhile ask Redis.
   */
  async #load(generation: number): Promise<void> {
    const started = monotonicNow();
    const stale = () => generation !== this.generation;
    const layout = this.#layout();
    const complete = await this.#loader.complete();
    if (stale()) return;
    if (complete && layout.mayReadIndex(started)) {
      try {
        if (await this.#loader.fromIndex(stale)) {
          layout.indexed = true;
          return;
        }
      } catch (error) {
        // Down: as for any load. Else an index that cannot be read (a key of the wrong type).
        if (!this.#health.up || !isWrongType(error)) throw error;
      }
    }
    layout.indexed = false;
    await this.#loader.fromKeys(stale);
  }
}
