// Which caller a request belongs to, for the cooldown (the security guide): a keyed hash
// (HMAC-SHA-256) of the request's credentials, so one user's throttle never blocks another's, and
// nothing in a store can be turned back into a credential by trying a dictionary of candidates.

import { HmacKey, toHex } from "../internal/hmac.js";
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
    return this.#key.partition(credentials.identity());
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
 * does), and never leaves the process.
 */
class PartitionKey {
  readonly #hmac: HmacKey;
  #young = new Map<string, string>();
  #old = new Map<string, string>();

  constructor(bytes: Uint8Array) {
    this.#hmac = new HmacKey(bytes);
  }

  partition(lines: string): string {
    const known = this.#young.get(lines) ?? this.#old.get(lines);
    if (known !== undefined) return known;
    const made = toHex(this.#hmac.sign(new TextEncoder().encode(lines)));
    if (this.#young.size >= CACHED_PARTITIONS / 2) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(lines, made);
    return made;
  }
}
