// Header reading: a fetch Headers is read once through its own iterator (issue 23) and answers
// exactly as its `get` and `has` do; anything else shaped like one is still asked name by name.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readHeaders } from "../../src/signals/headers.js";

const nameArb = fc.constantFrom(
  "retry-after",
  "Retry-After",
  "x-ratelimit-reset",
  "X-RateLimit-Remaining",
  "set-cookie",
  "ratelimit",
  "date",
  "x-a",
);
const valueArb = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,12}[\x21-\x7e])?$/),
  fc.constant(""),
);

describe("readHeaders on a fetch Headers", () => {
  it("answers get, has and names exactly as the Headers does, repeated fields included", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(nameArb, valueArb), { maxLength: 10 }), (fields) => {
        const headers = new Headers();
        for (const [name, value] of fields) headers.append(name, value);
        const reader = readHeaders(headers);
        for (const name of [
          "retry-after",
          "x-ratelimit-reset",
          "x-ratelimit-remaining",
          "set-cookie",
          "ratelimit",
          "date",
          "x-a",
          "absent",
        ]) {
          expect(reader.get(name)).toBe(headers.get(name) ?? undefined);
          expect(reader.has(name)).toBe(headers.has(name));
        }
        expect([...reader.names()].sort()).toEqual([...new Set(headers.keys())].sort());
      }),
      { numRuns: 1000 },
    );
  });

  it("asks name by name when the iterator fails (a proxy claiming the Headers prototype)", () => {
    const headers = new Headers({ "retry-after": "30" });
    // A proxy that claims the Headers prototype but is no Headers: its iterator throws.
    const liar = new Proxy(
      { get: (name: string) => (name === "retry-after" ? "7" : null), has: () => true },
      { getPrototypeOf: () => Headers.prototype },
    );
    expect(readHeaders(headers).get("retry-after")).toBe("30");
    expect(readHeaders(liar).get("retry-after")).toBe("7");
    expect(readHeaders(liar).get("date")).toBeUndefined();
  });
});

describe("readHeaders on a Map", () => {
  it("reads a Map from another realm (node:vm) with mixed-case names as this realm's Map", async () => {
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext(
      'new Map([["Retry-After", "30"], ["X-RateLimit-Remaining", "0"]])',
    ) as Map<string, unknown>;
    expect(foreign instanceof Map).toBe(false);
    const reader = readHeaders(foreign);
    expect(reader.get("retry-after")).toBe("30");
    expect(reader.get("x-ratelimit-remaining")).toBe("0");
    expect(reader.names()).toStrictEqual(["retry-after", "x-ratelimit-remaining"]);
    const { detectThrottle } = await import("../../src/index.js");
    expect(detectThrottle({ status: 429, headers: foreign })).toMatchObject({
      retryAfterSeconds: 30,
      delaySource: "retry-after",
    });
  });

  it("answers a foreign Map as it answers the same entries in a local one (property)", async () => {
    const { runInNewContext } = await import("node:vm");
    fc.assert(
      fc.property(fc.array(fc.tuple(nameArb, valueArb), { maxLength: 10 }), (fields) => {
        const foreign = runInNewContext("new Map(entries)", { entries: fields }) as Map<
          string,
          unknown
        >;
        const local = readHeaders(new Map(fields));
        const read = readHeaders(foreign);
        expect(read.names()).toStrictEqual(local.names());
        for (const [name] of fields)
          expect(read.get(name.toLowerCase())).toBe(local.get(name.toLowerCase()));
      }),
    );
  });

  it("reads a Map given the Headers prototype as the Map it is, mixed-case names folded", () => {
    const map = new Map<string, unknown>([
      ["Retry-After", "30"],
      ["retry-after", "7"],
    ]);
    Object.setPrototypeOf(map, Headers.prototype);
    const reader = readHeaders(map);
    expect(reader.get("retry-after")).toBe("30, 7");
    expect(reader.names()).toStrictEqual(["retry-after"]);
  });

  it("does not take an object that only claims to be a Map for one", () => {
    class FakeMap {
      get [Symbol.toStringTag]() {
        return "Map";
      }
      get(name: string) {
        return name === "retry-after" ? "5" : undefined;
      }
      has(name: string) {
        return name === "retry-after";
      }
      entries(): never {
        throw new Error("never asked");
      }
    }
    expect(readHeaders(new FakeMap()).get("retry-after")).toBe("5");
  });
});
