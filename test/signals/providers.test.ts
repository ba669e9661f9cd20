import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { detectThrottle } from "../../src/index.js";
import { NOW, PROVIDERS } from "../fixtures/providers.js";
import { renderProvidersTable, TABLE_END, TABLE_START } from "../fixtures/providers-table.js";

describe("detectThrottle on every provider's documented throttle", () => {
  it.each(PROVIDERS)("$provider ($url)", ({ response, expected }) => {
    const signal = detectThrottle(response, { now: NOW });
    expect(signal).toBeDefined();
    expect(signal?.delaySource).toBe(expected.delaySource);
    expect(signal?.retryAfterSeconds).toBe(expected.retryAfterSeconds);
    expect(signal?.limitName).toBe(expected.limitName);
    expect(signal?.resetsAt?.toISOString()).toBe(expected.resetsAt);
  });

  it("holds at least 50 providers, each citing an https page of its own", () => {
    const names = new Set(PROVIDERS.map(({ provider }) => provider.replace(/ \(.*\)$/, "")));
    expect(names.size).toBeGreaterThanOrEqual(50);
    for (const { url } of PROVIDERS) expect(new URL(url).protocol).toBe("https:");
  });

  it("reads a 2xx as no throttle when the body is not given", () => {
    const spent = PROVIDERS.filter(({ response }) => response.status < 300);
    expect(spent.length).toBeGreaterThanOrEqual(3);
    for (const { response } of spent) {
      expect(
        detectThrottle({ status: response.status, headers: response.headers }),
      ).toBeUndefined();
    }
  });
});

describe("the Supported signals table in docs/providers.md", () => {
  it("is the catalogue's rendering (npm run docs:providers writes it)", async () => {
    const doc = await readFile(new URL("../../docs/providers.md", import.meta.url), "utf8");
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start, "docs/providers.md has no generated table").toBeGreaterThan(-1);
    expect(doc.slice(start, end + TABLE_END.length)).toBe(renderProvidersTable());
  });

  it("lists every fixture once, in order, with its status and delay source", () => {
    const lines = renderProvidersTable()
      .split("\n")
      .filter(
        (line) =>
          line.startsWith("| ") && !line.startsWith("| provider") && !line.startsWith("| ---"),
      );
    expect(lines.map((line) => line.split(" | ")[0]?.slice(2))).toStrictEqual(
      PROVIDERS.map(({ provider }) => provider),
    );
    PROVIDERS.forEach(({ response, expected }, index) => {
      expect(lines[index]).toContain(`| ${response.status} | \`${expected.delaySource}\``);
    });
  });
});
