// The table at the top of the tool authors' guide names every door of the main entry, each once,
// and names nothing the main entry does not export.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as entry from "../../src/index.js";
import { root } from "./typecheck-blocks.js";

const DOORS = [
  "throttledTool",
  "withUpstreamThrottle",
  "throttledFetch",
  "throttleInterceptor",
  "sdkFetch",
  "aggregateTool",
  "fanOutTool",
  "throttleServer",
  "throttleGlobalFetch",
  "throttleAxios",
];

/** The first column of the first table after "Which door do I use?", one cell per row. */
async function doorCells(): Promise<string[]> {
  const text = await readFile(join(root, "docs/tool-authors.md"), "utf8");
  const after = text.slice(text.indexOf("Which door do I use?"));
  const rows = after.split("\n\n")[1]?.split("\n") ?? [];
  return rows.slice(2).map((row) => row.split("|")[1]?.trim() ?? "");
}

describe("the guide's door table", () => {
  it("opens the tool authors' guide, before its first section", async () => {
    const text = await readFile(join(root, "docs/tool-authors.md"), "utf8");
    expect(text.indexOf("Which door do I use?")).toBeGreaterThan(-1);
    expect(text.indexOf("Which door do I use?")).toBeLessThan(text.indexOf("\n## "));
  });

  it("names every door once, each a function of the main entry", async () => {
    const named = (await doorCells()).flatMap((cell) =>
      [...cell.matchAll(/`(\w+)\(/g)].map((match) => match[1]),
    );
    expect([...named].sort()).toStrictEqual([...DOORS].sort());
    for (const door of DOORS)
      expect(typeof (entry as Record<string, unknown>)[door], door).toBe("function");
  });
});
