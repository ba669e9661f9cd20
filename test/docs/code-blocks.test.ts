// Every ```ts block in the README and the guides compiles: each is written out as a module of
// its own under test/.tmp/docs/ and typechecked with the repo's compiler options (the package's
// names resolve to its source). A block that is only a fragment is not TypeScript: write it as
// ```text. The README's size is held under what the npm registry shows (65,536 characters) with
// room to spare, and no page cites a document the package does not ship.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root, tsBlocks, typecheckBlocks } from "./typecheck-blocks.js";

async function pages(): Promise<string[]> {
  const guides = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md"));
  return ["README.md", ...guides.map((name) => `docs/${name}`)];
}

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

  it("hold TypeScript blocks that all compile", async () => {
    const blocks = new Map<string, string>();
    for (const page of await pages()) {
      const text = await readFile(join(root, page), "utf8");
      for (const [index, block] of tsBlocks(text).entries())
        blocks.set(`${page.replace(/[/.]/g, "_")}_${index + 1}`, block);
    }
    // Under the strictest settings a user's project may have (`strict`,
    // `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`): a block that compiles here
    // compiles in theirs.
    const { count, output } = await typecheckBlocks("test/.tmp/docs", blocks);
    expect(count).toBeGreaterThan(0);
    expect(output).toBe("");
    // A cast that silences the compiler would let a block compile that a user's code would not.
    const casts = [...blocks].filter(([, block]) =>
      /\bas (never|any)\b|@ts-(ignore|expect-error)/.test(block),
    );
    expect(casts.map(([name]) => name)).toStrictEqual([]);
  }, 120_000);
});
