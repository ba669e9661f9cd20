import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { detectThrottle } from "../../src/index.js";
import { NOW, PROVIDERS } from "../fixtures/providers.js";

describe("detectThrottle on every provider's documented throttle", () => {
  it.each(PROVIDERS)("$provider ($source)", ({ response, expected }) => {
    const signal = detectThrottle(response, { now: NOW });
    expect(signal).toBeDefined();
    expect(signal?.delaySource).toBe(expected.delaySource);
    expect(signal?.retryAfterSeconds).toBe(expected.retryAfterSeconds);
    expect(signal?.limitName).toBe(expected.limitName);
    expect(signal?.resetsAt?.toISOString()).toBe(expected.resetsAt);
  });
});

describe("the Supported signals table in docs/providers.md", () => {
  it("lists exactly the provider fixtures, in order, with the same delay source and limit name", async () => {
    const readme = await readFile(new URL("../../docs/providers.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("# Supported signals"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| ---")));
    const rows = table
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .slice(2)
      .map((line) => line.split("|").map((cell) => cell.trim()));
    const listed = rows.map((cells) => ({
      provider: cells[1],
      status: Number(cells[2]),
      delaySource: cells[3]?.replaceAll("`", ""),
      limitName: /^`([^`]+)`/.exec(cells[4] ?? "")?.[1],
    }));
    expect(listed).toStrictEqual(
      PROVIDERS.map(({ provider, response, expected }) => ({
        provider,
        status: response.status,
        delaySource: expected.delaySource,
        limitName: expected.limitName,
      })),
    );
  });
});
