import { describe, expect, it } from "vitest";
import { type CooldownEntry, MemoryCooldownStore } from "../../src/index.js";

const entry = (limit: string): CooldownEntry => ({
  until: 0,
  limit,
  limitSource: "option",
  status: 429,
});

describe("MemoryCooldownStore", () => {
  it("returns an entry until its time to live has passed", () => {
    let now = 1_000;
    const store = new MemoryCooldownStore({ now: () => now });
    store.set("a", entry("a"), 500);
    expect(store.get("a")?.limit).toBe("a");
    now = 1_499;
    expect(store.get("a")?.limit).toBe("a");
    now = 1_500;
    expect(store.get("a")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("evicts the least recently used key past maxEntries", () => {
    const store = new MemoryCooldownStore({ maxEntries: 2 });
    store.set("a", entry("a"), 60_000);
    store.set("b", entry("b"), 60_000);
    store.get("a"); // a is now the most recently used
    store.set("c", entry("c"), 60_000);
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")?.limit).toBe("a");
    expect(store.get("c")?.limit).toBe("c");
    expect(store.size).toBe(2);
  });

  it("answers mayHave for a scope, or for any scope, until the latest cooldown has passed", () => {
    let now = 1_000;
    const store = new MemoryCooldownStore({ now: () => now });
    expect(store.mayHave()).toBe(false);
    expect(store.mayHave("search")).toBe(false);
    store.set("search|abc", entry("search"), 500);
    store.set("other|abc", entry("other"), 100);
    expect(store.mayHave()).toBe(true);
    expect(store.mayHave("search")).toBe(true);
    expect(store.mayHave("unknown")).toBe(false);
    now = 1_200;
    expect(store.mayHave("other")).toBe(false);
    expect(store.mayHave("search")).toBe(true);
    now = 1_500;
    expect(store.mayHave()).toBe(false);
    expect(store.mayHave("search")).toBe(false);
  });

  it("keeps at most maxEntries keys however many are set", () => {
    const store = new MemoryCooldownStore({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i += 1) store.set(`scope|${i}`, entry("x"), 60_000);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(store.get("scope|9999")?.limit).toBe("x");
  });

  it("rejects a bad maxEntries, naming it", () => {
    expect(() => new MemoryCooldownStore({ maxEntries: 0 })).toThrow(/`maxEntries`/);
  });
});
