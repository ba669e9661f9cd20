// Where one guarded call looks in the store: its scope (the limit, else the host) and its
// partition, each made only when first asked, so the success path builds neither.

import { PairCache } from "../internal/pair-cache.js";
import type { Credentials } from "../untrusted/credentials.js";
import type { Partitioner } from "./partition.js";
import { cooldownKey } from "./store.js";

/** Where a guarded call looks: its scope (limit or host) and, lazily, its partition. */
export interface CooldownLookup {
  scope: string;
  /** The wrapper's own name for the limit, when it has one. */
  limit: string | undefined;
  /** The caller's partition; computed only when the scope may be cooling down. */
  partition: () => string;
  /** The request's credentials, for cleaning what the store hands back. */
  credentials?: (() => Credentials) | undefined;
  /** The upstream's host, for events. */
  host?: (() => string | undefined) | undefined;
}

/** What a wrapper knows of one call, for its lookup. */
export interface LookupCall {
  limit: string | undefined;
  host?: (() => string | undefined) | undefined;
  credentials: () => Credentials;
  partition?: (() => string | undefined) | undefined;
}

/**
 * One guarded call's lookup: its scope, credentials and partition, each made when first asked.
 * Methods, not closures: the success path of a cooling limit builds one object per call.
 */
export class Lookup implements CooldownLookup {
  readonly limit: string | undefined;
  readonly #call: LookupCall;
  readonly #partitioner: Partitioner;
  #scope: string | undefined;
  #credentials: Credentials | undefined;

  constructor(call: LookupCall, partitioner: Partitioner) {
    this.#call = call;
    this.#partitioner = partitioner;
    this.limit = call.limit;
  }

  // Without a limit name the scope is the host, parsed from the URL only when needed.
  get scope(): string {
    this.#scope ??= this.#call.limit ?? this.#call.host?.() ?? "upstream";
    return this.#scope;
  }

  host(): string | undefined {
    return this.#call.host?.();
  }

  credentials(): Credentials {
    this.#credentials ??= this.#call.credentials();
    return this.#credentials;
  }

  partition(): string {
    const custom = this.#call.partition;
    return custom === undefined ? this.#partitioner.of(this.credentials()) : String(custom() ?? "");
  }
}

/** Keys made lately, by scope and partition: most calls ask for a key asked for before. */
const keys = new PairCache<string>(4096);

/**
 * The store key of a call; its partition is computed here, on demand. A key made before is
 * reused: the store then looks up a string whose hash is known, not a new one joined per call.
 */
export function keyOf(lookup: CooldownLookup): string {
  const scope = lookup.scope;
  const partition = lookup.partition();
  const known = keys.get(scope, partition);
  if (known !== undefined) return known;
  const key = cooldownKey(scope, partition);
  keys.set(scope, partition, key);
  return key;
}
