// A redis-server process the fault suite can stop, kill and restart on the same port.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 0;
}

export class RedisProcess {
  readonly dir = mkdtempSync(join(tmpdir(), "mcp-throttle-faults-"));
  #child: ChildProcess | undefined;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it; `persist` keeps what it had across a kill (AOF, fsync on every write). */
  async start(): Promise<void> {
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(this.port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--dir",
        this.dir,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      child.stdout?.on("data", (data: Buffer) => {
        output += data.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
      child.once("exit", (code) =>
        reject(new Error(`redis-server exited with ${code}: ${output}`)),
      );
    });
    child.stdout?.resume();
  }

  signal(signal: NodeJS.Signals): void {
    this.#child?.kill(signal);
  }

  /** kill -9; `empty` also deletes what it persisted, so it comes back with nothing. */
  async kill(empty: boolean): Promise<void> {
    const child = this.#child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      });
    }
    if (empty) {
      rmSync(this.dir, { recursive: true, force: true });
      // Same directory, nothing in it.
      mkdirSync(this.dir, { recursive: true });
    }
  }

  async stop(): Promise<void> {
    await this.kill(false);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
