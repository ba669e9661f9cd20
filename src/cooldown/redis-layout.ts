// Which layout the entries in Redis are in, as a RedisCooldownStore sees it: whether the index
// holds every entry (so loads read it), and the copy of the keyspace into the index that makes it
// so. A replica of an older version (announcements without `v`) fills no index: while one is
// heard, loads go by SCAN; once none was heard for a while, the keys are copied into the index and
// the marker is set. Anyone who can PUBLISH can send an announcement without `v`, so the copy is
// idempotent (a record already in the index is not written again: however often it runs, the
// index holds at most one record per write and per key) and bounded in time (each copy that an
// older replica's announcement undid waits twice as long as the last before it runs again).

import { monotonicNow } from "./clock.js";
import type { ViewLoader } from "./redis-loader.js";

/**
 * An older replica (announcements without `v`) heard within this long: the index may lack its
 * entries, so views are loaded by SCAN. Six heartbeats: every older replica that announces is heard.
 */
export const OLDER_MS = 3000;
/** The longest a copy waits after an older replica was last heard (it doubles from OLDER_MS). */
const MAX_COPY_WAIT_MS = 5 * 60_000;

export interface LayoutContext {
  loader: ViewLoader;
  report(error: unknown): void;
  /** The view may lack what the older replica wrote: load it again. */
  reload(): void;
  /** Whether the view is live, and since when the subscription carries messages without a break. */
  synced(): boolean;
  hearingSince(): number;
  /** Changes whenever the subscription drops or goes silent (a copy then stops). */
  epoch(): string;
  closed(): boolean;
}

export class Layout {
  /** When a replica of an older version (no index) was last heard on the channel. */
  olderAt = Number.NEGATIVE_INFINITY;
  /** The index holds every entry, as far as this replica knows: loads read it. */
  indexed = false;
  readonly #context: LayoutContext;
  #markerDroppedAt = Number.NEGATIVE_INFINITY;
  #copying = false;
  /** How long after an older replica was last heard the copy may run; doubles each time it is undone. */
  #waitMs = OLDER_MS;

  constructor(context: LayoutContext) {
    this.#context = context;
  }

  /** Whether a load started at `started` may read the index (given that the marker says so). */
  mayReadIndex(started: number): boolean {
    return started - this.olderAt > OLDER_MS;
  }

  /** An older replica writes here: the index may lack its entries. Loads go by SCAN meanwhile. */
  olderHeard(): void {
    const now = monotonicNow();
    this.olderAt = now;
    if (now - this.#markerDroppedAt > 1000) {
      // So that a replica starting now does not trust the index either.
      this.#markerDroppedAt = now;
      this.#context.loader.mark(false).catch(() => {});
    }
    if (!this.indexed) return;
    this.indexed = false;
    this.#waitMs = Math.min(this.#waitMs * 2, MAX_COPY_WAIT_MS);
    this.#context.report(
      new Error(
        "a replica of an older version writes these cooldowns without the index; loading them by SCAN",
      ),
    );
    this.#context.reload();
  }

  /**
   * At every beat: once no older replica was heard for a while (with the subscription live all
   * along), copies the entries of the keyspace missing from the index into it and sets the marker.
   */
  maybeCopy(): void {
    const context = this.#context;
    const now = monotonicNow();
    if (this.indexed || this.#copying || !context.synced() || context.closed()) return;
    if (now - this.olderAt <= this.#waitMs || now - context.hearingSince() < OLDER_MS) return;
    this.#copying = true;
    const epoch = context.epoch();
    const stale = () => context.epoch() !== epoch || this.olderAt >= now;
    const copy = async () => {
      const loader = context.loader;
      const complete = await loader.complete();
      if (!complete) await loader.copyKeysIntoIndex(stale);
      if (stale()) return;
      if (!complete) await loader.mark(true);
      this.indexed = true;
    };
    // A failure is reported (when Redis failed) by the command's timeout; tried again on a later beat.
    copy()
      .catch(() => {})
      .finally(() => {
        this.#copying = false;
      });
  }
}
