// The one way to hear of a cooldown store's failure: the `onEvent` of a wrapper using the store,
// as `store-error` events. Tests keep those events to count outages and read what failed.

import {
  type CooldownStore,
  type ThrottleEvent,
  type ThrottleEventHook,
  throttledFetch,
} from "../../src/index.js";

export type StoreErrorEvent = Extract<ThrottleEvent, { type: "store-error" }>;

/** An `onEvent` that keeps every `store-error` event in `into` (then calls `heard`), nothing else. */
export function storeErrorsInto(into: unknown[], heard?: () => void): ThrottleEventHook {
  return (event) => {
    if (event.type !== "store-error") return;
    into.push(event);
    heard?.();
  };
}

/** Wrappers kept alive for the test run: a store holds its wrappers' hooks weakly. */
const listening = new Set<unknown>();

/**
 * The failures a store reports of itself (a lost subscription, a view that could not load, a
 * write refused), kept in `into`: heard as a wrapper using the store hears them.
 */
export function hearStore(store: CooldownStore, into: unknown[], heard?: () => void): void {
  listening.add(
    throttledFetch({
      cooldown: { store, partitionSecret: "a partition secret the test wrappers share" },
      onEvent: storeErrorsInto(into, heard),
    }),
  );
}
