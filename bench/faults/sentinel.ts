// Redis with failover for the fault suite: a master, a replica of it and a sentinel (real
// redis-server processes on loopback, the sentinel as `redis-server <conf> --sentinel`, which every
// Redis install has; Debian ships no `redis-sentinel` binary), on ports the OS gave, and the
// failover itself: the master killed (kill -9), the replica promoted by the sentinel.

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { trackDir } from "./children.js";
import { freePorts, killProcess, startProcess } from "./redis-process.js";
import { at, sleep } from "./upstream.js";

const NAME = "faults";

export class SentinelSet {
  readonly dir = trackDir(mkdtempSync(join(tmpdir(), "mcp-throttle-sentinel-")));
  #children: ChildProcess[] = [];
  #master: ChildProcess | undefined;
  masterPort = 0;
  replicaPort = 0;
  sentinelPort = 0;

  /** What a replica passes to reach it: "sentinel:<host>:<port>:<name>". */
  get url(): string {
    return `sentinel:127.0.0.1:${this.sentinelPort}:${NAME}`;
  }

  async start(): Promise<void> {
    [this.masterPort, this.replicaPort, this.sentinelPort] = (await freePorts(3)) as [
      number,
      number,
      number,
    ];
    // In its own directory: a replica writes the master's snapshot to disk when it syncs.
    const base = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir];
    this.#master = await startProcess(
      "redis-server",
      ["--port", String(this.masterPort), ...base],
      /Ready to accept/,
    );
    this.#children.push(this.#master);
    const replica = await startProcess(
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
    this.#children.push(replica);
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
    const sentinel = await startProcess(
      "redis-server",
      [config, "--sentinel"],
      /Sentinel ID|monitor master/,
    );
    this.#children.push(sentinel);
    await this.#until(async (admin) => (await this.#masterPort(admin)) === this.masterPort, 10_000);
  }

  /** kill -9 of the master; resolves once the sentinel names the promoted replica. Its note. */
  async failover(): Promise<string> {
    const started = at();
    await killProcess(this.#master);
    const promoted = await this.#until(
      async (admin) => (await this.#masterPort(admin)) === this.replicaPort,
      20_000,
    );
    const seconds = ((at() - started) / 1000).toFixed(1);
    return promoted ? `replica promoted after ${seconds} s` : "no promotion within 20 s";
  }

  async stop(): Promise<void> {
    for (const child of this.#children) await killProcess(child);
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
