// The rules skip a field whose bit the response's names did not set (src/signals/fields.ts). The
// oracle is the same detector reading through a Headers-like object, whose names are not read up
// front, so that every rule asks for every field, as every rule did before: the answers must be
// the same for any response.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectThrottle } from "../../src/index.js";
import type { DetectSettings } from "../../src/signals/detect.js";
import { nameBits, UPPER_CASE } from "../../src/signals/fields.js";
import { quotaSpent } from "../../src/signals/quota-spent.js";
import { SecretMatcher } from "../../src/untrusted/secrets.js";

const NAMES = [
  "retry-after",
  "retry-after-ms",
  "x-ms-retry-after-ms",
  "ratelimit",
  "ratelimit-policy",
  "ratelimit-reset",
  "ratelimit-remaining",
  "ratelimit-name",
  "ratelimit-reason",
  "x-ratelimit-reset",
  "x-ratelimit-remaining",
  "x-rate-limit-reset",
  "x-rate-limit-remaining",
  "x-ratelimit-resource",
  "x-ratelimit-reset-after",
  "x-ratelimit-reset-requests",
  "x-ratelimit-reset-tokens",
  "x-ratelimit-remaining-requests",
  "x-ratelimit-remaining-tokens",
  "anthropic-ratelimit-requests-reset",
  "anthropic-ratelimit-requests-remaining",
  "anthropic-ratelimit-output-tokens-reset",
  "anthropic-ratelimit-output-tokens-remaining",
  "x-ratelimit-requests-reset",
  "x-ratelimit-requests-remaining",
  "x-sentry-rate-limit-reset",
  "x-sentry-rate-limit-remaining",
  "x-hubspot-ratelimit-interval-milliseconds",
  "x-hubspot-ratelimit-remaining",
  "zendesk-ratelimit-tickets-index",
  "zendesk-ratelimit-search",
  "stripe-rate-limited-reason",
  "x-amzn-errortype",
  "date",
  "content-type",
];

const NOW = new Date("2026-11-29T12:00:00Z");

const value = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "30",
    "0.0",
    "2.5",
    "0, 9000",
    "1, 1419704",
    "1795953630",
    "1795953630000",
    "6m0s",
    "12ms",
    '"burst";r=0;t=30, "daily";r=900;t=40000',
    '"burst";q=100;w=60',
    "limit=100, remaining=0, reset=5",
    "total=100; remaining=0; resets=41",
    "total=100; remaining=99; resets=41",
    "remaining=0; resets=7",
    "core",
    "search",
    "ThrottlingException",
    "2026-11-29T12:01:00Z",
    "2026-11-29T12:05Z",
    NOW.toUTCString(),
    new Date(NOW.getTime() + 90_000).toUTCString(),
  ),
  fc.string({ maxLength: 12 }),
);

const name = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((text) => text.toUpperCase()),
  fc.string({ maxLength: 10 }),
);

const headers = fc.dictionary(name, value, { maxKeys: 8 });
const status = fc.constantFrom(200, 400, 403, 404, 429, 503);

/** The same fields behind `get`, `has` and `keys`: a reader that cannot list its names first. */
class HeadersLike {
  readonly #map: Map<string, string>;

  constructor(record: Record<string, string>) {
    this.#map = new Map(Object.entries(record).map(([key, text]) => [key.toLowerCase(), text]));
  }

  get(key: string): string | null {
    return this.#map.get(key.toLowerCase()) ?? null;
  }

  has(key: string): boolean {
    return this.#map.has(key.toLowerCase());
  }

  keys(): IterableIterator<string> {
    return this.#map.keys();
  }
}

const headersLike = (record: Record<string, string>) =>
  new HeadersLike(record) as unknown as Headers;

const SETTINGS: DetectSettings = {
  maxMs: 86_400_000,
  treat503AsThrottle: false,
  upstreamText: "sanitized",
  secrets: SecretMatcher.EMPTY,
};

describe("the fields a response's names say it holds", () => {
  it("give the answer of every rule asking for every field (property)", () => {
    fc.assert(
      fc.property(status, headers, fc.boolean(), (code, fields, treat503AsThrottle) => {
        const options = { now: NOW, treat503AsThrottle };
        // A duplicate name in two cases is joined one way by a record, another by a map.
        const lower = new Set(Object.keys(fields).map((key) => key.toLowerCase()));
        fc.pre(lower.size === Object.keys(fields).length);
        const read = detectThrottle({ status: code, headers: fields }, options);
        const asked = detectThrottle({ status: code, headers: headersLike(fields) }, options);
        expect(read).toEqual(asked);
        const spent = quotaSpent({ status: 200, headers: fields }, () => SETTINGS, NOW.getTime());
        const spentAsked = quotaSpent(
          { status: 200, headers: headersLike(fields) },
          () => SETTINGS,
          NOW.getTime(),
        );
        expect(spent).toEqual(spentAsked);
      }),
      { numRuns: 5000 },
    );
  });

  it("and of a fetch Headers, read by its own iterator", () => {
    fc.assert(
      fc.property(status, headers, (code, fields) => {
        const lower = new Set(Object.keys(fields).map((key) => key.toLowerCase()));
        fc.pre(lower.size === Object.keys(fields).length);
        let fetchHeaders: Headers;
        try {
          fetchHeaders = new Headers(fields);
        } catch {
          return; // a name or value fetch refuses
        }
        const options = { now: NOW };
        expect(detectThrottle({ status: code, headers: fetchHeaders }, options)).toEqual(
          detectThrottle({ status: code, headers: headersLike(fields) }, options),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("marks a name with upper case for folding, and a lowercase known name with its field", () => {
    expect(nameBits("Retry-After") & UPPER_CASE).toBe(UPPER_CASE);
    expect(nameBits("retry-after") & UPPER_CASE).toBe(0);
    expect(nameBits("retry-after")).not.toBe(0);
    expect(nameBits("x-unknown")).toBe(0);
  });
});
