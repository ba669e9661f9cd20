// Redis with failover for the fault suite: a master, a replica of it and a sentinel (real
// redis-server and redis-sentinel processes on loopback), and the failover itself: the master
// killed (kill -9), the replica promoted by the sentinel.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { at, sleep } from "./upstream.js";

const NAME = "faults";

function start(command: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (data: Buffer) => {
      output += data.toString();
      if (ready.test(output)) {
        child.stdout?.removeAllListeners("data");
        child.stdout?.resume();
        resolve(child);
      }
    });
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
}

const stop = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null)
      return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

export class SentinelSet {
  readonly dir = mkdtempSync(join(tmpdir(), "mcp-throttle-sentinel-"));
  #children: ChildProcess[] = [];
  #master: ChildProcess | undefined;

  constructor(
    readonly masterPort: number,
    readonly replicaPort: number,
    readonly sentinelPort: number,
  ) {}

  /** What a replica passes to reach it: "sentinel:<host>:<port>:<name>". */
  get url(): string {
    return `sentinel:127.0.0.1:${this.sentinelPort}:${NAME}`;
  }

  async start(): Promise<void> {
    // In its own directory: a replica writes the master's snapshot to disk when it syncs.
    const base = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir];
    this.#master = await start(
      "redis-server",
      ["--port", String(this.masterPort), ...base],
      /Ready to accept/,
    );
    const replica = await start(
      "redis-server",
      [
        "--port",
        String(this.replicaPort),
        ...base,
        "--replicaof",
        "127.0.0.1",
        String(this.masterPort),
      ],
      /Ready to accept/,
    );
    const config = join(this.dir, "sentinel.conf");
    writeFileSync(
      config,
      [
        `port ${this.sentinelPort}`,
        "bind 127.0.0.1",
        `dir ${this.dir}`,
        `sentinel monitor ${NAME} 127.0.0.1 ${this.masterPort} 1`,
        `sentinel down-after-milliseconds ${NAME} 1000`,
        `sentinel failover-timeout ${NAME} 5000`,
        "",
      ].join("\n"),
    );
    const sentinel = await start("redis-sentinel", [config], /Sentinel ID|monitor master/);
    this.#children = [this.#master, replica, sentinel];
    await this.#until(async (admin) => (await this.#masterPort(admin)) === this.masterPort, 10_000);
  }

  /** kill -9 of the master; resolves once the sentinel names the promoted replica. Its note. */
  async failover(): Promise<string> {
    const started = at();
    await stop(this.#master);
    const promoted = await this.#until(
      async (admin) => (await this.#masterPort(admin)) === this.replicaPort,
      20_000,
    );
    const seconds = ((at() - started) / 1000).toFixed(1);
    return promoted ? `replica promoted after ${seconds} s` : "no promotion within 20 s";
  }

  async stop(): Promise<void> {
    for (const child of this.#children) await stop(child);
    rmSync(this.dir, { recursive: true, force: true });
  }

  async #masterPort(admin: Redis): Promise<number> {
    const reply = (await admin.call("SENTINEL", "get-master-addr-by-name", NAME)) as
      | string[]
      | null;
    return Number(reply?.[1] ?? 0);
  }

  async #until(check: (admin: Redis) => Promise<boolean>, ms: number): Promise<boolean> {
    const admin = new Redis({ port: this.sentinelPort, host: "127.0.0.1", lazyConnect: true });
    admin.on("error", () => {});
    const end = at() + ms;
    try {
      while (at() < end) {
        if (await check(admin).catch(() => false)) return true;
        await sleep(100);
      }
      return false;
    } finally {
      admin.disconnect();
    }
  }
}
