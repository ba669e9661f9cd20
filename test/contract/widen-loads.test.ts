// Which zod modules the "./zod" entry loads, seen from a fresh Node process: NODE_DEBUG=esm
// names every ES module Node stores, static imports and require(esm) alike. A project on zod 4
// (classic or mini) never loads zod 3; a zod 3 shape loads it, and is answered in the project's
// own zod 3 classes (Node's require(esm) takes the module `import` stored). Under tsx, which
// compiles a required ES module itself, the classes are a second copy, which zod 3 takes alike.

import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The zod modules (`zod/v3/…`, `zod/v4/…`) a fresh process loads while running `script`. */
async function zodModulesLoaded(
  script: string,
): Promise<{ v3: boolean; v4: boolean; out: string }> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: ROOT, env: { ...process.env, NODE_DEBUG: "esm" }, maxBuffer: 64 * 1024 * 1024 },
  );
  const stored = stderr.split("\n").filter((line) => / Storing file:\/\/\S*\/zod\//.test(line));
  return {
    v3: stored.some((line) => line.includes("/zod/v3/")),
    v4: stored.some((line) => line.includes("/zod/v4/")),
    out: stdout.trim(),
  };
}

describe("the ./zod entry loads the zod the project uses", () => {
  it("widens zod 4 classic, zod/mini and empty shapes without loading zod 3", async () => {
    const loaded = await zodModulesLoaded(`
      import { widenOutputShape } from "./src/zod.ts";
      import * as z4 from "zod/v4";
      import * as zm from "zod/v4/mini";
      const shapes = [{ a: z4.string() }, z4.object({ a: z4.number() }), zm.object({ a: zm.string() }), {}];
      for (const shape of shapes) if (!("_zod" in widenOutputShape(shape).error)) throw new Error("not zod 4");
      console.log("widened", shapes.length);
    `);
    expect(loaded.out).toBe("widened 4");
    // The debug output names zod 4's modules, so it would name zod 3's had they loaded.
    expect(loaded.v4).toBe(true);
    expect(loaded.v3).toBe(false);
  }, 60_000);

  it("loads zod 3 for a zod 3 shape, whose widened shape the project's zod 3 object takes", async () => {
    const loaded = await zodModulesLoaded(`
      import { widenOutputShape } from "./src/zod.ts";
      import * as z3 from "zod/v3";
      const object = z3.object(widenOutputShape({ hits: z3.array(z3.string()) }));
      const error = { type: "rate_limited", limit: "search", message: "Slow down." };
      console.log(object.safeParse({ error }).success, object.safeParse({ error: { ...error, limit: " " } }).success);
    `);
    expect(loaded.out).toBe("true false");
    expect(loaded.v3).toBe(true);
  }, 60_000);

  it("answers a zod 3 shape in the classes of the zod 3 the project imported", async () => {
    const z3 = await import("zod/v3");
    const { widenOutputShape } = await import("../../src/zod.js");
    const widened = widenOutputShape({ hits: z3.array(z3.string()) });
    expect(widened.error).toBeInstanceOf(z3.ZodOptional);
    expect(widened.error.unwrap()).toBeInstanceOf(z3.ZodObject);
  });
});
