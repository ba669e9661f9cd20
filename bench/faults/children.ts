// Every process and directory the fault suite starts, so that none outlives it: on a normal end,
// an exception, or SIGINT / SIGTERM / SIGHUP, each child still running is killed (SIGKILL: a redis-server
// held by SIGSTOP ends too) and each directory removed.

import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

const children = new Set<ChildProcess>();
const dirs = new Set<string>();

/** Kills `child` when the suite ends, whatever ends it; a spawn that fails is an `'error'`. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Removes `dir` when the suite ends. */
export function trackDir(dir: string): string {
  dirs.add(dir);
  return dir;
}

/** Kills every child still running and removes every directory: synchronous, for `'exit'`. */
export function cleanUp(): void {
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
  children.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** Cleans up on every way out of the process: the end, an uncaught error, SIGINT, SIGTERM, SIGHUP. */
export function cleanUpOnExit(): void {
  process.once("exit", cleanUp);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping every child\n`);
      cleanUp();
      process.exit(code);
    });
  }
  const fail = (error: unknown) => {
    process.stderr.write(`fault suite failed: ${error instanceof Error ? error.stack : error}\n`);
    cleanUp();
    process.exit(1);
  };
  process.once("uncaughtException", fail);
  process.once("unhandledRejection", fail);
}
