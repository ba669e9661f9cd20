// Every ```ts block in the README and the guides compiles: each is written out as a module of
// its own under test/.tmp/docs/ and typechecked with the repo's compiler options (the package's
// names resolve to its source). A block that is only a fragment is not TypeScript: write it as
// ```text. The README's size is held under what the npm registry shows (65,536 characters) with
// room to spare, and no page cites a document the package does not ship.

import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = join(root, "test/.tmp/docs");

async function pages(): Promise<string[]> {
  const guides = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md"));
  return ["README.md", ...guides.map((name) => `docs/${name}`)];
}

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
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

  it("hold TypeScript blocks that all compile", async () => {
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    const files: string[] = [];
    for (const page of await pages()) {
      const blocks = tsBlocks(await readFile(join(root, page), "utf8"));
      for (const [index, block] of blocks.entries()) {
        const file = join(out, `${page.replace(/[/.]/g, "_")}_${index + 1}.ts`);
        // Each block is a module of its own, even one without an import.
        await writeFile(file, `${block}\nexport {};\n`);
        files.push(relative(out, file));
      }
    }
    expect(files.length).toBeGreaterThan(0);
    await writeFile(
      join(out, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        // As a user's strict project compiles them (exactOptionalPropertyTypes is the repo's own choice).
        compilerOptions: { noUnusedLocals: false, exactOptionalPropertyTypes: false },
        include: files,
      }),
    );
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const run = promisify(execFile)(process.execPath, [tsc, "-p", join(out, "tsconfig.json")], {
      cwd: root,
    });
    const output = await run.then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(output).toBe("");
  }, 120_000);
});
