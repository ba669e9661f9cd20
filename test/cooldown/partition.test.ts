// The partition a request is stored under is the keyed hash of its credential lines, however it
// is found: a request with one credential is looked up by the line's head and value apart, one
// with several by the joined lines, and either may come from the cache. These properties hold
// the fast lookups to the definition.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Partitioner } from "../../src/cooldown/partition.js";
import { HmacKey, toHex } from "../../src/internal/hmac.js";
import { fetchCredentials } from "../../src/untrusted/credentials.js";

const SECRET = "a partition secret of 32 chars!!";

/** The definition: HMAC-SHA-256 of the sorted lines joined by newlines, "" without any. */
function definition(lines: string[]): string {
  if (lines.length === 0) return "";
  const key = new HmacKey(new TextEncoder().encode(SECRET));
  return toHex(key.sign(new TextEncoder().encode(lines.join("\n"))));
}

const names = fc.constantFrom(
  "authorization",
  "Authorization",
  "x-api-key",
  "X-Api-Key",
  "cookie",
  "idempotency-key",
  "content-type",
  "x-key=a",
  "x-key",
);
const values = fc.oneof(
  fc.constantFrom("Bearer sk_live_A", "Bearer sk_live_B", "a=b", "b", ""),
  fc.string({ maxLength: 12 }),
);
const urls = fc.constantFrom(
  "https://api.example.com/v1/search?q=q",
  "https://api.example.com/v1/search?api_key=k1",
  "https://user:pw@api.example.com/v1",
  "https://hooks.example.com/T0123/B0123/Xq9ZkD2mV7pR4tLw8sNb1cYh",
);
const requests = fc.array(
  fc.record({ url: urls, headers: fc.dictionary(names, values, { maxKeys: 4 }) }),
  { minLength: 1, maxLength: 20 },
);

describe("Partitioner", () => {
  it("gives every request the HMAC of its joined lines, first asked or from the cache", () => {
    fc.assert(
      fc.property(requests, (batch) => {
        const partitioner = new Partitioner(SECRET);
        // Twice over, so the second round reads what the first cached, in the same process.
        for (const request of [...batch, ...batch]) {
          const credentials = fetchCredentials(request.url, { headers: request.headers });
          expect(credentials.identity()).toBe(credentials.lines().join("\n"));
          expect(partitioner.of(credentials)).toBe(definition(credentials.lines()));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("gives one partition to one value under two header names, and two to two values", () => {
    const partitioner = new Partitioner(SECRET);
    // A line names the value, not the header that carried it: `secret:=a=b`.
    const one = fetchCredentials("https://api.example.com/", { headers: { "x-key": "a=b" } });
    const same = fetchCredentials("https://api.example.com/", { headers: { "x-api-key": "a=b" } });
    const other = fetchCredentials("https://api.example.com/", { headers: { "x-key=a": "b" } });
    expect(one.lines()).toStrictEqual(same.lines());
    expect(partitioner.of(one)).toBe(partitioner.of(same));
    expect(partitioner.of(one)).not.toBe(partitioner.of(other));
    expect(partitioner.of(one)).toBe(definition(one.lines()));
  });
});
