// A store's own failures, those no guarded call sees (a lost subscription, a view that could not
// load, a write Redis refused but announced), reach the `onEvent` of every wrapper that uses the
// store: one place to hear of every store failure. A wrapper's hook is held weakly, so a wrapper
// built per request and dropped leaves nothing behind in a store that lives for the process.

import type { ThrottleEvent, ThrottleEventHook } from "../observability/events.js";
import { callHook } from "./hooks.js";

/** Sweep the dead hooks after this many new ones: wrappers built per request would pile up. */
const SWEEP_EVERY = 64;

class StoreListeners {
  readonly #hooks = new Set<WeakRef<ThrottleEventHook>>();
  readonly #known = new WeakSet<ThrottleEventHook>();
  #added = 0;

  add(hook: ThrottleEventHook): void {
    if (this.#known.has(hook)) return;
    this.#known.add(hook);
    this.#hooks.add(new WeakRef(hook));
    this.#added += 1;
    if (this.#added % SWEEP_EVERY === 0) this.#each(() => {});
  }

  /** Tells every hook, each once. */
  tell(event: ThrottleEvent): void {
    this.#each((hook) => callHook(hook as (event: unknown) => unknown, event));
  }

  #each(call: (hook: ThrottleEventHook) => void): void {
    for (const ref of this.#hooks) {
      const hook = ref.deref();
      if (hook === undefined) this.#hooks.delete(ref);
      else call(hook);
    }
  }
}

const listeners = new WeakMap<object, StoreListeners>();

/** Tells `hook` (a wrapper's `onEvent`) of the store's own failures from now on. */
export function listenToStore(store: object, hook: ThrottleEventHook | undefined): void {
  if (hook === undefined || typeof WeakRef !== "function") return;
  let known = listeners.get(store);
  if (known === undefined) {
    known = new StoreListeners();
    listeners.set(store, known);
  }
  known.add(hook);
}

/**
 * The hook a store reports its own failures to: the `onEvent` of every wrapper that uses it,
 * each hook once. Each hook that throws is ignored on its own.
 */
export function storeEventHook(store: object): ThrottleEventHook {
  return (event) => listeners.get(store)?.tell(event);
}
