// A redis-server process the fault suite can stop, kill and restart on the same port, on a port
// the OS gave (a listener on port 0, read and closed; another port is tried if it was taken in
// between).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track, trackDir } from "./children.js";

/** `count` distinct ports the OS has free now: all held open at once, then closed. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const address = server.address();
    ports.push(typeof address === "object" && address !== null ? address.port : 0);
  }
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

/**
 * Starts `command` with `args` (tracked: killed when the suite ends) and resolves once its
 * output matches `ready`; rejects when it cannot be spawned (`'error'`) or exits first.
 */
export function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
): Promise<ChildProcess> {
  const child = track(spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] }));
  return new Promise((resolve, reject) => {
    let output = "";
    const onExit = (code: number | null) =>
      reject(new Error(`${command} exited with ${code} before it was ready: ${output}`));
    child.once("error", (error) => {
      child.off("exit", onExit);
      reject(new Error(`${command} could not be started: ${error.message}`, { cause: error }));
    });
    child.once("exit", onExit);
    child.stdout?.on("data", (data: Buffer) => {
      output += data.toString();
      if (!ready.test(output)) return;
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      child.off("exit", onExit);
      resolve(child);
    });
  });
}

/** SIGKILL, and resolves once it has exited. */
export function killProcess(child: ChildProcess | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
      return resolve();
    }
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

export class RedisProcess {
  readonly dir = trackDir(mkdtempSync(join(tmpdir(), "mcp-throttle-faults-")));
  #child: ChildProcess | undefined;
  #port = 0;

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.#port}`;
  }

  /**
   * Starts it (AOF, fsync on every write: what it had survives a kill), on a free port the first
   * time and on the same port after.
   */
  async start(): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const first = this.#port === 0;
      if (first) [this.#port] = (await freePorts(1)) as [number];
      try {
        this.#child = await startProcess(
          "redis-server",
          [
            "--port",
            String(this.#port),
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
          /Ready to accept connections/,
        );
        return;
      } catch (error) {
        // The port was taken between the probe and the bind: another one.
        if (!first || attempt >= 2) throw error;
        this.#port = 0;
      }
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.#child?.kill(signal);
  }

  /** kill -9; `empty` also deletes what it persisted, so it comes back with nothing. */
  async kill(empty: boolean): Promise<void> {
    await killProcess(this.#child);
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
