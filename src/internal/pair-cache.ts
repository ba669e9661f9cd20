// A bounded cache keyed by two strings kept apart: a hot path looks up what it holds (a header's
// `kind:name=` and its value, a scope and a partition) without joining a new string per call.

/**
 * Values by two keys, in two bounded generations: when the young one is full it becomes the
 * old one and the older is dropped whole, so a flood of new keys only costs the reuse.
 */
export class PairCache<V> {
  readonly #generation: number;
  #young = new Map<string, Map<string, V>>();
  #old = new Map<string, Map<string, V>>();
  #youngSize = 0;

  /** `size`: the entries kept at most, over both generations. */
  constructor(size: number) {
    this.#generation = Math.max(1, Math.floor(size / 2));
  }

  get(first: string, second: string): V | undefined {
    return this.#young.get(first)?.get(second) ?? this.#old.get(first)?.get(second);
  }

  set(first: string, second: string, value: V): void {
    if (this.#youngSize >= this.#generation) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngSize = 0;
    }
    let values = this.#young.get(first);
    if (values === undefined) {
      values = new Map();
      this.#young.set(first, values);
    }
    if (!values.has(second)) this.#youngSize += 1;
    values.set(second, value);
  }
}
