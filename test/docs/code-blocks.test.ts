// The README and the guides as text: the README's size is held under what the npm registry
// shows (65,536 characters) with room to spare, and no page cites a document the package does not
// ship or names a round of work. Their ```ts blocks are compiled by tsdoc-examples.test.ts, in
// the program that reads the TSDoc.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pages, root } from "./typecheck-blocks.js";

describe("the README and the guides", () => {
  it("keep the README under 20,000 characters", async () => {
    const readme = await readFile(join(root, "README.md"), "utf8");
    expect(readme.length).toBeLessThanOrEqual(20_000);
  });

  it("cite no document that is not shipped (design notes, section numbers)", async () => {
    for (const page of [...(await pages()), "CHANGELOG.md", "SECURITY.md"]) {
      const text = await readFile(join(root, page), "utf8");
      expect(text, page).not.toMatch(/design(\.md)?\s*§|§\s*\d/);
    }
  });

  it("name no issue and no round of work: the guides, and the CHANGELOG's headings", async () => {
    const history = /\bissues? #?\d+|\bthis round\b|\bround \d+\b/i;
    const found: string[] = [];
    for (const page of [...(await pages()), "SECURITY.md"]) {
      const text = await readFile(join(root, page), "utf8");
      for (const line of text.split("\n")) if (history.test(line)) found.push(`${page}: ${line}`);
    }
    const changelog = await readFile(join(root, "CHANGELOG.md"), "utf8");
    for (const line of changelog.split("\n"))
      if (line.startsWith("#") && history.test(line)) found.push(`CHANGELOG.md: ${line}`);
    expect(found).toEqual([]);
  });
});
