// Which caller a request belongs to, for the cooldown (docs/security.md): a keyed hash
// (HMAC-SHA-256) of the request's credentials, so one user's throttle never blocks another's, and
// nothing in a store can be turned back into a credential by trying a dictionary of candidates.

import { HmacKey, toHex } from "../internal/hmac.js";
import type { Credentials } from "../untrusted/credentials.js";

/** The shortest `partitionSecret`: shorter ones are within reach of a dictionary. */
export const MIN_PARTITION_SECRET_LENGTH = 16;

export class Partitioner {
  readonly #secret: string | undefined;
  #key: HmacKey | undefined;

  /** `secret`: the same on every replica; without it, a random key for this process. */
  constructor(secret: string | undefined) {
    this.#secret = secret;
  }

  /** The caller's partition: "" for a request without credentials, else a hex HMAC. */
  of(credentials: Credentials): string {
    if (credentials.isEmpty) return "";
    const message = new TextEncoder().encode(credentials.lines().join("\n"));
    return toHex(this.#hmacKey().sign(message));
  }

  /**
   * Made on first use, not at construction: Workers refuse to generate random values in the
   * global scope, where wrappers are usually built.
   */
  #hmacKey(): HmacKey {
    if (this.#key === undefined) {
      const bytes =
        this.#secret === undefined
          ? crypto.getRandomValues(new Uint8Array(32))
          : new TextEncoder().encode(this.#secret);
      this.#key = new HmacKey(bytes);
    }
    return this.#key;
  }
}
