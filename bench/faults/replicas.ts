// The replica processes of the fault suite (replica.ts), started and asked from here.

import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { track } from "./children.js";
import { type Answer, at, records, sleep } from "./upstream.js";

export interface Replica {
  child: ChildProcess;
  ask(message: object): Promise<Record<string, unknown>>;
}

export interface ReplicaSpec {
  kind: string;
  redisUrl: string;
  upstreamUrl: string;
  partitions: number;
  rate: number;
  /** Starts it with its system clock this far off (time origin and wall clock). */
  skewMs?: number;
}

export async function startReplica(spec: ReplicaSpec): Promise<Replica> {
  const { kind, redisUrl, upstreamUrl, partitions, rate, skewMs = 0 } = spec;
  const child = track(
    fork(
      fileURLToPath(new URL("./replica.ts", import.meta.url)),
      [kind, redisUrl, upstreamUrl, String(partitions), String(rate)],
      {
        execArgv: ["--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        env: { ...process.env, CLOCK_SKEW_MS: String(skewMs) },
      },
    ),
  );
  let next = 0;
  const pending = new Map<number, (value: Record<string, unknown>) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
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
        if (!child.connected) return resolve({});
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
export async function untilSynced(replicas: Replica[], max: number): Promise<number> {
  const started = at();
  while (at() - started < max) {
    if (await allSynced(replicas)) return at() - started;
    await sleep(50);
  }
  return Number.POSITIVE_INFINITY;
}

/** close() + quit() in the replica; it must then end on its own. Whether it did. */
export async function stopReplica(replica: Replica): Promise<boolean> {
  const exited = new Promise<boolean>((resolve) => replica.child.once("exit", () => resolve(true)));
  await replica.ask({ stop: true });
  const ended = await Promise.race([exited, sleep(5000).then(() => false)]);
  if (!ended) replica.child.kill("SIGKILL");
  return ended;
}
