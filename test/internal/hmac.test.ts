// The plain-TypeScript SHA-256 and HMAC-SHA-256 the partitions use, held to node:crypto's
// across the lengths where padding changes (55, 56, 64 bytes…) and keys longer than a block.

import { createHash, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HmacKey, sha256, toHex } from "../../src/internal/hmac.js";

const LENGTHS = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000];

describe("sha256", () => {
  it.each(LENGTHS)("matches node:crypto for %i bytes", (length) => {
    const data = randomBytes(length);
    expect(toHex(sha256(data))).toBe(createHash("sha256").update(data).digest("hex"));
  });

  it("gives the FIPS 180-4 digest of 'abc'", () => {
    expect(toHex(sha256(new TextEncoder().encode("abc")))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});

describe("HmacKey", () => {
  it.each([0, 16, 32, 63, 64, 65, 131])("matches node:crypto for a %i-byte key", (keyLength) => {
    const key = randomBytes(keyLength);
    const hmac = new HmacKey(key);
    for (const length of LENGTHS) {
      const message = randomBytes(length);
      expect(toHex(hmac.sign(message))).toBe(
        createHmac("sha256", key).update(message).digest("hex"),
      );
    }
  });

  it("gives RFC 4231 test case 2", () => {
    const key = new TextEncoder().encode("Jefe");
    const message = new TextEncoder().encode("what do ya want for nothing?");
    expect(toHex(new HmacKey(key).sign(message))).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });
});
