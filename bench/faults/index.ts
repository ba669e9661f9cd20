// The fault suite (issue 18): real redis-server processes, replica processes calling a real
// upstream through RedisCooldownStore (ioredis and node-redis), and each fault injected in turn.
// Per fault it prints: wrong lock-outs (a cooldown answer more than 250 ms after the upstream's
// penalty ended), calls that reached the upstream during an active penalty, the success path's
// p50/p99 during the fault against the no-fault baseline, and the time until every replica's
// view is live again. Loopback only; bounded in time. `--short` is the CI version.
//
//   npm run faults            (4 replicas, ~2.5 min)
//   npm run faults -- --short (2 replicas, ~1.5 min)

import { type ChildProcess, fork } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { FaultProxy } from "./proxy.js";
import { RedisProcess } from "./redis-process.js";

const short = process.argv.includes("--short");
const REPLICAS = short ? 2 : 4;
const RATE = short ? 100 : 200; // calls per second per replica
const PARTITIONS = short ? 100 : 200;
const PENALTY_MS = 1000;
const PENALTY_CHANCE = 0.03;
const UPSTREAM_MS = 50;
const FAULT_MS = short ? 2000 : 3000;
const AFTER_MS = short ? 2000 : 3000;
const BASELINE_MS = short ? 3000 : 5000;
const LATE_MS = 250;
const CLIENTS = ["ioredis", "node-redis"] as const;
const BASE_PORT = 6410;

const at = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the upstream: random 1 s penalties per partition, answered with retry-after-ms ----
const intervals = new Map<number, [number, number][]>();
const intoPenalty: number[] = [];

function upstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const partition = Number(/tenant-(\d+)/.exec(req.headers.authorization ?? "")?.[1] ?? -1);
    const now = at();
    const list = intervals.get(partition) ?? [];
    const current = list[list.length - 1];
    if (current !== undefined && now < current[1]) {
      intoPenalty.push(now);
      res.writeHead(429, { "retry-after-ms": String(Math.ceil(current[1] - now)) });
      return res.end();
    }
    if (Math.random() < PENALTY_CHANCE) {
      list.push([now, now + PENALTY_MS]);
      intervals.set(partition, list);
      res.writeHead(429, { "retry-after-ms": String(PENALTY_MS) });
      return res.end();
    }
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    }, UPSTREAM_MS);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// ---- replicas ----
type Answer = [number, number, number, number];
const records: Answer[] = [];

interface Replica {
  child: ChildProcess;
  ask(message: object): Promise<Record<string, unknown>>;
}

async function startReplica(kind: string, redisUrl: string, upstreamUrl: string): Promise<Replica> {
  const child = fork(
    fileURLToPath(new URL("./replica.ts", import.meta.url)),
    [kind, redisUrl, upstreamUrl, String(PARTITIONS), String(RATE)],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  let next = 0;
  const pending = new Map<number, (value: Record<string, unknown>) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`replica exited with ${code}`)));
    child.on("message", (message: { id?: number; ready?: true; records?: Answer[] }) => {
      if (message.ready) resolve();
      if (message.records) records.push(...message.records);
      if (message.id !== undefined) pending.get(message.id)?.(message);
    });
  });
  return {
    child,
    ask: (message) =>
      new Promise((resolve) => {
        next += 1;
        pending.set(next, resolve);
        child.send({ id: next, ...message });
      }),
  };
}

async function allSynced(replicas: Replica[]): Promise<boolean> {
  const answers = await Promise.all(replicas.map((replica) => replica.ask({ synced: true })));
  return answers.every((answer) => answer.synced === true);
}

/** Milliseconds from now until every replica's view is live (polled every 50 ms), at most `max`. */
async function untilSynced(replicas: Replica[], max: number): Promise<number> {
  const started = at();
  while (at() - started < max) {
    if (await allSynced(replicas)) return at() - started;
    await sleep(50);
  }
  return Number.POSITIVE_INFINITY;
}

// ---- measuring a window ----
interface Row {
  client: string;
  fault: string;
  calls: number;
  wrong: number;
  worstLateMs: number;
  intoPenalty: number;
  p50: number;
  p99: number;
  errors: number;
  recoveryMs: number | undefined;
  note: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

function measure(from: number, to: number): Omit<Row, "client" | "fault" | "recoveryMs" | "note"> {
  const inWindow = records.filter((record) => record[2] >= from && record[2] < to);
  const successes = inWindow
    .filter((record) => record[0] === 0)
    .map((record) => record[3])
    .sort((a, b) => a - b);
  let wrong = 0;
  let worstLateMs = 0;
  for (const [outcome, partition, when] of inWindow) {
    if (outcome !== 2) continue;
    const list = intervals.get(partition) ?? [];
    if (list.some(([start, end]) => when >= start && when <= end + LATE_MS)) continue;
    wrong += 1;
    const lastEnd = Math.max(...list.filter(([start]) => start <= when).map(([, end]) => end));
    worstLateMs = Math.max(worstLateMs, when - lastEnd);
  }
  return {
    calls: inWindow.length,
    wrong,
    worstLateMs,
    intoPenalty: intoPenalty.filter((when) => when >= from && when < to).length,
    p50: percentile(successes, 50),
    p99: percentile(successes, 99),
    errors: inWindow.filter((record) => record[0] === 3).length,
  };
}

// ---- the faults ----
interface World {
  redis: RedisProcess;
  proxy: FaultProxy;
  admin: Redis;
  replicas: Replica[];
}

interface Fault {
  name: string;
  /** Injects the fault, waits it out, heals it. */
  run(world: World): Promise<string | undefined>;
}

const FAULTS: Fault[] = [
  {
    name: `SIGSTOP ${FAULT_MS / 1000} s`,
    run: async ({ redis }) => {
      redis.signal("SIGSTOP");
      await sleep(FAULT_MS);
      redis.signal("SIGCONT");
      return undefined;
    },
  },
  {
    name: "kill -9, back after 2 s",
    run: async ({ redis }) => {
      await redis.kill(false);
      await sleep(2000);
      await redis.start();
      return undefined;
    },
  },
  {
    name: "restart empty",
    run: async ({ redis }) => {
      await redis.kill(true);
      await redis.start();
      return undefined;
    },
  },
  {
    name: `CLIENT PAUSE ${FAULT_MS / 1000} s`,
    run: async ({ admin }) => {
      await admin.call("CLIENT", "PAUSE", String(FAULT_MS), "ALL");
      await sleep(FAULT_MS);
      return undefined;
    },
  },
  {
    name: `proxy +200 ms, ${FAULT_MS / 1000} s`,
    run: async ({ proxy }) => {
      proxy.delayMs = 200;
      await sleep(FAULT_MS);
      proxy.delayMs = 0;
      return undefined;
    },
  },
  {
    name: `proxy frozen ${FAULT_MS / 1000} s`,
    run: async ({ proxy }) => {
      proxy.freeze(true);
      await sleep(FAULT_MS);
      proxy.freeze(false);
      return undefined;
    },
  },
  {
    name: `subscribers blackholed ${(FAULT_MS * 2) / 1000} s`,
    run: async ({ proxy }) => {
      proxy.blackholeSubscribers(true);
      await sleep(FAULT_MS * 2);
      proxy.blackholeSubscribers(false);
      return undefined;
    },
  },
  {
    name: "proxy reset",
    run: async ({ proxy }) => {
      proxy.reset();
      await sleep(500);
      return undefined;
    },
  },
  {
    name: "maxmemory allkeys-lru",
    run: async ({ admin }) => {
      const count = async () => (await admin.keys("faults:*")).length;
      const before = await count();
      const info = String(await admin.info("memory"));
      const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
      await admin.config("SET", "maxmemory-policy", "allkeys-lru");
      await admin.config("SET", "maxmemory", String(used + 2 * 1024 * 1024));
      const filler = "x".repeat(1024);
      const end = at() + FAULT_MS;
      for (let i = 0; at() < end; i += 1) {
        const pipeline = admin.pipeline();
        for (let j = 0; j < 200; j += 1) pipeline.set(`filler:${i}:${j}`, filler);
        await pipeline.exec().catch(() => {});
        await sleep(20);
      }
      const after = await count();
      await admin.config("SET", "maxmemory", "0");
      await admin.config("SET", "maxmemory-policy", "noeviction");
      return `cooldown keys ${before} → ${after}`;
    },
  },
  {
    name: `clock −20 s in one replica, ${FAULT_MS / 1000} s`,
    run: async ({ replicas }) => {
      await replicas[0]?.ask({ clock: -20_000 });
      await sleep(FAULT_MS);
      await replicas[0]?.ask({ clock: 0 });
      return undefined;
    },
  },
];

async function runClient(kind: string, index: number): Promise<{ rows: Row[]; exits: string }> {
  const redis = new RedisProcess(BASE_PORT + index);
  await redis.start();
  const proxy = new FaultProxy();
  await proxy.start(redis.port);
  const server = await upstream();
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = new Redis(redis.url);
  admin.on("error", () => {});
  const replicas = await Promise.all(
    Array.from({ length: REPLICAS }, () =>
      startReplica(kind, `redis://127.0.0.1:${proxy.port}`, upstreamUrl),
    ),
  );
  const world = { redis, proxy, admin, replicas };
  const rows: Row[] = [];
  await untilSynced(replicas, 5000);
  await sleep(2000); // warm-up
  const baseFrom = at();
  await sleep(BASELINE_MS);
  rows.push({
    client: kind,
    fault: "baseline (no fault)",
    ...measure(baseFrom, at()),
    recoveryMs: undefined,
    note: "",
  });
  for (const fault of FAULTS) {
    const from = at();
    const note = await fault.run(world);
    const healed = at();
    const recoveryMs = await untilSynced(replicas, 10_000);
    await sleep(Math.max(0, AFTER_MS - (at() - healed)));
    rows.push({
      client: kind,
      fault: fault.name,
      ...measure(from, at()),
      recoveryMs,
      note: note ?? "",
    });
    process.stderr.write(`  ${kind}: ${fault.name} done\n`);
  }
  // close() + quit() in every replica; each must then end on its own.
  const exits = await Promise.all(
    replicas.map(async (replica) => {
      const exited = new Promise<boolean>((resolve) =>
        replica.child.once("exit", () => resolve(true)),
      );
      await replica.ask({ stop: true });
      server.closeAllConnections();
      const ended = await Promise.race([exited, sleep(5000).then(() => false)]);
      if (!ended) replica.child.kill("SIGKILL");
      return ended;
    }),
  );
  admin.disconnect();
  await proxy.close();
  server.close();
  await redis.stop();
  const ended = exits.filter(Boolean).length;
  return {
    rows,
    exits: `${ended} of ${exits.length} replicas ended by themselves after close() + quit()`,
  };
}

const format = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : "—");

const started = at();
const all: Row[] = [];
const exitLines: string[] = [];
for (const [index, kind] of CLIENTS.entries()) {
  process.stderr.write(
    `${kind}: ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions\n`,
  );
  const { rows, exits } = await runClient(kind, index);
  all.push(...rows);
  exitLines.push(`${kind}: ${exits}`);
}

console.log(
  `\nFault suite (${short ? "short" : "full"}): ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions, 1 s penalties, upstream ${UPSTREAM_MS} ms\n`,
);
console.log(
  "| client | fault | calls | wrong lock-outs > 250 ms (worst) | calls into a penalty | success p50 / p99 ms (baseline) | view live again after | errors | note |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
let failed = false;
for (const row of all) {
  const base = all.find((other) => other.client === row.client && other.recoveryMs === undefined);
  const p99Ratio = base === undefined ? 1 : row.p99 / base.p99;
  if (row.wrong > 0 || row.errors > 0) failed = true;
  console.log(
    `| ${row.client} | ${row.fault} | ${row.calls} | ${row.wrong}${row.wrong > 0 ? ` (${format(row.worstLateMs)} ms)` : ""} | ${row.intoPenalty} | ${format(row.p50)} / ${format(row.p99)}${base && row !== base ? ` (${format(base.p50)} / ${format(base.p99)}, p99 ×${p99Ratio.toFixed(2)})` : ""} | ${row.recoveryMs === undefined ? "" : `${(row.recoveryMs / 1000).toFixed(2)} s`} | ${row.errors} | ${row.note} |`,
  );
}
console.log(`\n${exitLines.join("\n")}`);
console.log(`\n${((at() - started) / 1000).toFixed(0)} s in all`);
if (exitLines.some((line) => !line.startsWith(`${line.split(":")[0]}: ${REPLICAS} of`)))
  failed = true;
process.exitCode = failed ? 1 : 0;
