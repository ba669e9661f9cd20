// The fault suite: real redis-server processes, replica processes calling a real upstream
// through RedisCooldownStore (ioredis and node-redis), and each fault injected in turn; then the
// same on Redis with failover (a master, its replica and a sentinel; ioredis following the
// sentinel). Each row is printed as soon as its fault is over: wrong lock-outs (a cooldown answer
// no throttle accounts for, upstream.ts says how that is judged), late answers (more than 250 ms
// after the upstream's penalty ended), calls that reached the upstream during an active penalty
// (during the fault and after it is healed, the latter per second beside the baseline's rate
// measured in the same run), the success path's p50/p99 against the baseline, and the time until
// every replica's view is live again. The exit code judges only what the machine's load cannot
// change: a wrong lock-out, a call that failed with a non-throttle error, a replica alive after
// close() + quit(), a suite that could not finish; the timing goals (late answers, calls into
// penalties after a fault, views live within 2 s) are printed in the goal column, not enforced.
// Every port comes from the OS; every process it starts is killed however it ends (children.ts).
// Loopback only; bounded in time. `--short` is the CI version.
//
//   npm run faults            (4 replicas, ~6 min)
//   npm run faults -- --short (2 replicas, ~4 min)

import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { cleanUp, cleanUpOnExit } from "./children.js";
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
  /** Every replica ended by itself after close() + quit(). */
  allEnded: boolean;
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
    return {
      exits: `${ended} of ${exits.length} replicas ended by themselves after close() + quit()`,
      allEnded: ended === exits.length,
    };
  };
  return { list, respawn, stopAll };
}

async function runClient(kind: string): Promise<Run> {
  const redis = new RedisProcess();
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
  const rows = [printed(await baseline(kind, replicas.list))];
  for (const fault of faults(short)) {
    rows.push(printed(await runFault(kind, world, fault), rows[0]));
  }
  server.closeAllConnections();
  const stopped = await replicas.stopAll();
  admin.disconnect();
  await proxy.close();
  server.close();
  await redis.stop();
  return { rows, ...stopped };
}

/** ioredis following a sentinel: the master killed mid-load, the replica promoted. */
async function runSentinel(): Promise<Run> {
  const kind = "ioredis + Sentinel";
  const set = new SentinelSet();
  await set.start();
  const server = await upstream();
  const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const replicas = await replicasOn("ioredis", set.url, upstreamUrl);
  const rows = [printed(await baseline(kind, replicas.list))];
  const world = { replicas: replicas.list } as unknown as World;
  const failover = {
    name: "failover: master kill -9, replica promoted",
    run: () => set.failover(),
  };
  rows.push(printed(await runFault(kind, world, failover), rows[0]));
  server.closeAllConnections();
  const stopped = await replicas.stopAll();
  server.close();
  await set.stop();
  return { rows, ...stopped };
}

const format = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : "—");
const perSecond = (calls: number, ms: number) => (ms > 0 ? (calls * 1000) / ms : 0);

/** Whether a row meets the timing goals; the reasons when not. Printed, never enforced. */
function goal(row: Row, base: Row): string {
  const misses: string[] = [];
  if (row.late > 0) misses.push("late");
  // Against the baseline's rate, or one call a second where the baseline had none.
  const allowed = 2 * Math.max(perSecond(base.after, base.afterMs), 1);
  if (perSecond(row.after, row.afterMs) > allowed) misses.push("penalties");
  if (row.recoveryMs !== undefined && !(row.recoveryMs <= LIVE_GOAL_MS)) misses.push("live");
  return misses.length === 0 ? "met" : `missed: ${misses.join(", ")}`;
}

/** Rows that failed the gate: a wrong lock-out or a non-throttle error. */
const failedRows: string[] = [];

/** Prints one row as soon as it is measured (`base`: its client's baseline); returns it. */
function printed(row: Row, base?: Row): Row {
  if (row.wrong > 0 || row.errors > 0) failedRows.push(`${row.client}: ${row.fault}`);
  const rate = perSecond(row.after, row.afterMs).toFixed(1);
  const late = `${row.late}${row.late > 0 ? ` (${format(row.worstLateMs)} ms)` : ""}`;
  const worst = Number.isFinite(row.worstWrongMs)
    ? `${format(row.worstWrongMs)} ms past its throttle`
    : "no throttle";
  const wrong = [
    `${row.wrong}${row.wrong > 0 ? ` (worst: ${worst})` : ""}`,
    row.unjudged > 0 ? ` (${row.unjudged} not judged)` : "",
  ].join("");
  const cells =
    base === undefined
      ? [row.intoPenalty, rate, `${format(row.p50)} / ${format(row.p99)}`, "", row.errors, ""]
      : [
          `${row.intoPenalty - row.after} + ${row.after}`,
          `${rate} (${perSecond(base.after, base.afterMs).toFixed(1)})`,
          `${format(row.p50)} / ${format(row.p99)} (${format(base.p50)} / ${format(base.p99)}, p99 ×${(row.p99 / base.p99).toFixed(2)})`,
          row.recoveryMs === undefined ? "" : `${(row.recoveryMs / 1000).toFixed(2)} s`,
          row.errors,
          goal(row, base),
        ];
  console.log(
    `| ${[row.client, row.fault, row.calls, wrong, late, ...cells, row.note].join(" | ")} |`,
  );
  return row;
}

cleanUpOnExit();
const started = at();
console.log(
  `Fault suite (${short ? "short" : "full"}): ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions, 1 s penalties, upstream 50 ms\n`,
);
console.log(
  "| client | fault | calls | wrong lock-outs | late > 250 ms (worst) | calls into a penalty: during the fault + after it | after it, per s (baseline per s) | success p50 / p99 ms (baseline) | view live again after | errors | timing goal | note |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
const runs: { name: string; run: Run }[] = [];
/** Runs one client's rows; one that cannot run (a process that would not start) fails the gate. */
async function attempt(name: string, run: () => Promise<Run>): Promise<void> {
  try {
    runs.push({ name, run: await run() });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`| ${name} | could not run: ${reason.split("\n")[0]} |`);
    failedRows.push(`${name}: could not run`);
    // What it started is stopped before the next client begins.
    cleanUp();
  }
}
for (const kind of CLIENTS) {
  process.stderr.write(
    `${kind}: ${REPLICAS} replicas × ${RATE} calls/s, ${PARTITIONS} partitions\n`,
  );
  await attempt(kind, () => runClient(kind));
}
process.stderr.write("ioredis + Sentinel: failover\n");
await attempt("ioredis + Sentinel", runSentinel);
console.log(`\n${runs.map(({ name, run }) => `${name}: ${run.exits}`).join("\n")}`);
console.log(`\n${((at() - started) / 1000).toFixed(0)} s in all`);
const aliveAfterStop = runs.filter(({ run }) => !run.allEnded).map(({ name }) => name);
const failed = failedRows.length > 0 || aliveAfterStop.length > 0;
console.log(
  failed
    ? `gate: FAILED (${[...failedRows, ...aliveAfterStop.map((name) => `${name}: a replica alive after close() + quit()`)].join("; ")})`
    : "gate: passed (no wrong lock-out, no non-throttle error, every replica ended by itself)",
);
cleanUp();
// Ended here, whatever a client that could not run left open in this process.
process.exit(failed ? 1 : 0);
