// Which caller a request belongs to, for the cooldown (the security guide): a keyed hash
// (HMAC-SHA-256) of the request's credentials, so one user's throttle never blocks another's, and
// nothing in a store can be turned back into a credential by trying a dictionary of candidates.

import { HmacKey, toHex } from "../internal/hmac.js";
import { PairCache } from "../internal/pair-cache.js";
import type { Credentials } from "../untrusted/credentials.js";

/** The shortest `partitionSecret`: shorter ones are within reach of a dictionary. */
export const MIN_PARTITION_SECRET_LENGTH = 16;

/** Partitions remembered per key, by their credential lines: a busy tenant's hash is reused. */
const CACHED_PARTITIONS = 4096;

/**
 * One HMAC key per process (isolate) without a secret, and one per secret: a server that
 * builds its wrappers per request (the SDK's stateless Streamable HTTP pattern) still puts a
 * caller in the same partition on every request.
 */
const keys = new Map<string | undefined, PartitionKey>();

export class Partitioner {
  readonly #secret: string | undefined;
  #key: PartitionKey | undefined;

  /** `secret`: the same on every replica; without it, the random key of this process. */
  constructor(secret: string | undefined) {
    this.#secret = secret;
  }

  /** The caller's partition: "" for a request without credentials, else a hex HMAC. */
  of(credentials: Credentials): string {
    if (credentials.isEmpty) return "";
    this.#key ??= keyFor(this.#secret);
    // One credential (most requests): found by the strings the request holds, unjoined.
    const single = credentials.single();
    return single === undefined
      ? this.#key.partition("", credentials.identity())
      : this.#key.partition(single[0], single[1]);
  }
}

/** Made on first use, not at import: Workers refuse random values in the global scope. */
function keyFor(secret: string | undefined): PartitionKey {
  let key = keys.get(secret);
  if (key === undefined) {
    // Secrets are few (one per deployment); a process that makes many only loses the reuse.
    if (keys.size >= 64) keys.clear();
    key = new PartitionKey(
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : new TextEncoder().encode(secret),
    );
    keys.set(secret, key);
  }
  return key;
}

/**
 * An HMAC key and the partitions it made lately. The cache holds credential lines the process
 * already holds in its requests, in two bounded generations (dropped whole, as the memory store
 * does), and never leaves the process. It is keyed by a line's `kind:name=` and its value apart
 * (`""` and the joined lines for a request with several): looking up a joined line would join
 * and hash a new string on every call. Either way the partition is the HMAC of `head + rest`.
 */
class PartitionKey {
  readonly #hmac: HmacKey;
  readonly #made = new PairCache<string>(CACHED_PARTITIONS);

  constructor(bytes: Uint8Array) {
    this.#hmac = new HmacKey(bytes);
  }

  /** The partition of the identity `head + rest`. */
  partition(head: string, rest: string): string {
    const known = this.#made.get(head, rest);
    if (known !== undefined) return known;
    const made = toHex(this.#hmac.sign(new TextEncoder().encode(head + rest)));
    this.#made.set(head, rest, made);
    return made;
  }
}
