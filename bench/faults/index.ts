// The fault suite: real redis-server processes, replica processes calling a real upstream
// through RedisCooldownStore (ioredis and node-redis), and each fault injected in turn; then the
// same on Redis with failover (a master, its replica and a sentinel; ioredis following the
// sentinel). Per fault it prints: wrong lock-outs (a cooldown answer more than 250 ms after the
// upstream's penalty ended), calls that reached the upstream during an active penalty (during
// the fault and after it is healed, the latter per second beside the baseline's rate measured in
// the same run), the success path's p50/p99 against the baseline, and the time until every
// replica's view is live again. Loopback only; bounded in time. `--short` is the CI version.
//
//   npm run faults            (4 replicas, ~6 min)
//   npm run faults -- --short (2 replicas, ~4 min)

import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { type Fault, faults, type World } from "./faults.js";
import { FaultProxy } from "./proxy.js";
import { RedisProcess } from "./redis-process.js";
import { type Replica, startReplica, stopReplica, untilSynced } from "./replicas.js";
import { SentinelSet } from "./sentinel.js";
import { at, type Measured, measure, penaltiesBetween, sleep, upstream } from "./upstream.js";

const short = process.argv.includes("--short");
const REPLICAS = short ? 2 : 4;
const RATE = short ? 100 : 200; // calls per second per replica
const PARTITIONS = short ? 100 : 200;
const AFTER_MS = short ? 2000 : 3000;
const BASELINE_MS = short ? 3000 : 5000;
const CLIENTS = ["ioredis", "node-redis"] as const;
const BASE_PORT = 6410;
const SENTINEL_PORTS = [6420, 6421, 26420] as const;
/** The goals: views live again within this long, calls into penalties after a fault ≤ 2× baseline. */
const LIVE_GOAL_MS = 2000;

interface Row extends Measured {
  client: string;
  fault: string;
  /** Calls into a penalty after the fault was healed, and over how long. */
  after: number;
  afterMs: number;
  recoveryMs: number | undefined;
  note: string;
}

/** One row: the fault's window, then until the views are live and AFTER_MS have passed. */
async function runFault(client: string, world: World, fault: Fault): Promise<Row> {
  const from = at();
  const note = await fault.run(world);
  const healed = at();
  const recoveryMs = await untilSynced(world.replicas, 10_000);
  await sleep(Math.max(0, AFTER_MS - (at() - healed)));
  const to = at();
  process.stderr.write(`  ${client}: ${fault.name} done\n`);
  return {
    client,
    fault: fault.name,
    ...measure(from, to),
    after: penaltiesBetween(healed, to),
    afterMs: to - healed,
    recoveryMs,
    note: note ?? "",
  };
}

async function baseline(client: string, replicas: Replica[]): Promise<Row> {
  await untilSynced(replicas, 5000);
  await sleep(2000); // warm-up
  const from = at();
  await sleep(BASELINE_MS);
  const to = at();
  const row = { client, fault: "baseline (no fault)", ...measure(from, to) };
  return { ...row, after: row.intoPenalty, afterMs: to - from, recoveryMs: undefined, note: "" };
}

interface Run {
  rows: Row[];
  exits: string;
}

/** Replicas of `kind` on `redisUrl`; `list` is filled in place (a fault may replace one). */
async function replicasOn(kind: string, redisUrl: string, upstreamUrl: string) {
  const spec = { kind, redisUrl, upstreamUrl, partitions: PARTITIONS, rate: RATE };
  const list = await Promise.all(Array.from({ length: REPLICAS }, () => startReplica(spec)));
  const respawn = async (index: number, skewMs = 0) => {
    list[index] = await startReplica({ ...spec, skewMs });
  };
  const stopAll = async () => {
    const exits = await Promise.all(list.map(stopReplica));
    const ended = exits.filter(Boolean).length;
    return `${ended} of ${exits.length} replicas ended by themselves after close() + quit()`;
  };
  return { list, respawn, stopAll };
}

async function runClient(kind: string, index: number): Promise<Run> {
  const redis = new RedisProcess(BASE_PORT + index);
  await redis.start();
  const proxy = new FaultProxy();
  await proxy.start(redis.port);
  const server = await upstream();
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = new Redis(redis.url);
  admin.on("error", () => {});
  const replicas = await replicasOn(kind, `redis://127.0.0.1:${proxy.port}`, upstreamUrl);
  const world: World = {
    redis,
    proxy,
    admin,
    replicas: replicas.list,
    respawn: replicas.respawn,
    channel: "faults:announcements",
  };
  const rows = [await baseline(kind, replicas.list)];
  for (const fault of faults(short)) rows.push(await runFault(kind, world, fault));
  server.closeAllConnections();
  const exits = await replicas.stopAll();
  admin.disconnect();
  await proxy.close();
  server.close();
  await redis.stop();
  return { rows, exits };
}

/** ioredis following a sentinel: the master killed mid-load, the replica promoted. */
async function runSentinel(): Promise<Run> {
  const kind = "ioredis + Sentinel";
  const set = new SentinelSet(...SENTINEL_PORTS);
  await set.start();
  const server = await upstream();
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const replicas = await replicasOn("ioredis", set.url, upstreamUrl);
  const rows = [await baseline(kind, replicas.list)];
  const world = { replicas: replicas.list } as unknown as World;
  const failover = {
    name: "failover: master kill -9, replica promoted",
    run: () => set.failover(),
  };
  rows.push(await runFault(kind, world, failover));
  server.closeAllConnections();
  const exits = await replicas.stopAll();
  server.close();
  await set.stop();
  return { rows, exits };
}

const format = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : "—");
const perSecond = (calls: number, ms: number) => (ms > 0 ? (calls * 1000) / ms : 0);

/** Whether a row meets the goals; the reasons when not. */
function goal(row: Row, base: Row | undefined): string {
  const misses: string[] = [];
  if (row.wrong > 0) misses.push("lock-outs");
  // Against the baseline's rate, or one call a second where the baseline had none.
  const allowed = 2 * Math.max(base === undefined ? 0 : perSecond(base.after, base.afterMs), 1);
  if (perSecond(row.after, row.afterMs) > allowed) misses.push("penalties");
  if (row.recoveryMs !== undefined && !(row.recoveryMs <= LIVE_GOAL_MS)) misses.push("live");
  return misses.length === 0 ? "met" : `missed: ${misses.join(", ")}`;
}

function print(all: Row[]): boolean {
  console.log(
    `\nFault suite (${short ? "short" : "full"}): ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions, 1 s penalties, upstream 50 ms\n`,
  );
  console.log(
    "| client | fault | calls | wrong lock-outs > 250 ms (worst) | calls into a penalty: during the fault + after it | after it, per s (baseline per s) | success p50 / p99 ms (baseline) | view live again after | errors | goal | note |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  let failed = false;
  for (const row of all) {
    const base = all.find((other) => other.client === row.client && other.recoveryMs === undefined);
    const p99Ratio = base === undefined ? 1 : row.p99 / base.p99;
    if (row.wrong > 0 || row.errors > 0) failed = true;
    const isBase = base === undefined || row === base;
    const rate = perSecond(row.after, row.afterMs).toFixed(1);
    const baseRate = base === undefined ? "" : perSecond(base.after, base.afterMs).toFixed(1);
    console.log(
      `| ${row.client} | ${row.fault} | ${row.calls} | ${row.wrong}${row.wrong > 0 ? ` (${format(row.worstLateMs)} ms)` : ""} | ${isBase ? row.intoPenalty : `${row.intoPenalty - row.after} + ${row.after}`} | ${isBase ? rate : `${rate} (${baseRate})`} | ${format(row.p50)} / ${format(row.p99)}${isBase ? "" : ` (${format(base.p50)} / ${format(base.p99)}, p99 ×${p99Ratio.toFixed(2)})`} | ${row.recoveryMs === undefined ? "" : `${(row.recoveryMs / 1000).toFixed(2)} s`} | ${row.errors} | ${isBase ? "" : goal(row, base)} | ${row.note} |`,
    );
  }
  return failed;
}

const started = at();
const runs: Run[] = [];
for (const [index, kind] of CLIENTS.entries()) {
  process.stderr.write(
    `${kind}: ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions\n`,
  );
  runs.push(await runClient(kind, index));
}
process.stderr.write("ioredis + Sentinel: failover\n");
runs.push(await runSentinel());
let failed = print(runs.flatMap((run) => run.rows));
const names = [...CLIENTS, "ioredis + Sentinel"];
console.log(`\n${runs.map((run, i) => `${names[i]}: ${run.exits}`).join("\n")}`);
console.log(`\n${((at() - started) / 1000).toFixed(0)} s in all`);
if (runs.some((run) => !run.exits.startsWith(`${REPLICAS} of`))) failed = true;
process.exitCode = failed ? 1 : 0;
