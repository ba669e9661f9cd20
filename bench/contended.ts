// The success path of a caller whose limit is cooling down for someone else (issue 23, item 1):
// in a multi-tenant server one tenant's throttle is the normal state, and every other tenant of
// the limit then has its partition hashed and looked up on each call. Each case is paired with
// the same throttledFetch and credentials without a cooldown, alone and with 16 and 128 callers
// in flight; and the CPU cost per call without the network. Asserts nothing.

import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { micro, paired, pairedConcurrent, ratio, startUpstream, tooNoisy } from "./measure.js";
import { startBenchRedis } from "./redis.js";

type Library = typeof import("../src/index.js");

const SECRET = "bench partition secret, 32 chars";
const tenant = (name: string) => ({
  headers: {
    authorization: `Bearer sk_live_${name}0123456789abcdef0123456789`,
    "content-type": "application/json",
  },
});
const COOLING = tenant("AAAA");
const CALLING = tenant("BBBB");

export interface ContendedFigures {
  /** name → median latency with the cooldown / without, in the same pairing. */
  ratios: [string, number][];
  /** name → CPU time per call added by the lookup (ns), with a fetch that answers at once. */
  cpuNs: [string, number][];
}

export async function benchContended(
  library: Library,
  base: string,
  redisUrl: string | undefined,
): Promise<ContendedFigures> {
  const { throttledFetch, RedisCooldownStore } = library;
  const ok = `${base}/ok?q=q`;
  const throttled = `${base}/throttled`;
  const body = (response: Response) => response.arrayBuffer();
  // A limit of its own: `cooldown: true` shares one store per process with the other parts.
  const plain = throttledFetch({ limit: "contended" });
  const variants: [string, () => typeof fetch][] = [
    ["memory", () => throttledFetch({ limit: "contended", cooldown: true })],
  ];
  const clients: Redis[] = [];
  const stores: InstanceType<Library["RedisCooldownStore"]>[] = [];
  if (redisUrl !== undefined) {
    const client = new Redis(redisUrl);
    clients.push(client);
    const store = new RedisCooldownStore({ client, prefix: `bench:${Math.random()}:` });
    stores.push(store);
    const deadline = Date.now() + 5000;
    while (!store.synced && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    variants.push([
      "Redis (announced view)",
      () => throttledFetch({ limit: "contended", cooldown: { store, partitionSecret: SECRET } }),
    ]);
  }

  console.log(
    "\ncooling down for someone else: a second tenant's calls, paired with throttledFetch() alone",
  );
  const ratios: [string, number][] = [];
  for (const [name, make] of variants) {
    const guarded = make();
    // Tenant A is throttled for 60 s; tenant B's calls must go through, and cost what they did.
    await guarded(throttled, COOLING).catch(() => {});
    const cases = {
      plain: async () => body(await plain(ok, CALLING)),
      cooling: async () => body(await guarded(ok, CALLING)),
    };
    for (const callers of [1, 16, 128]) {
      const result =
        callers === 1
          ? await paired(cases)
          : await pairedConcurrent(cases, callers, Math.max(20, Math.floor(2400 / callers)));
      const label = `${name}, Authorization, C=${callers}`;
      const value = (result.cooling ?? Number.NaN) / (result.plain ?? Number.NaN);
      // A comparison whose A/A floor is too wide says nothing: no figure for the goals either.
      if (!tooNoisy(result.plain ?? Number.NaN)) ratios.push([label, value]);
      console.log(
        `  ${label.padEnd(40)}${micro(result.cooling ?? Number.NaN)}   ${ratio(result.cooling ?? Number.NaN, result.plain ?? Number.NaN)}× (${micro(result.plain ?? Number.NaN)} without)`,
      );
    }
  }

  console.log("\nthe same without the network (a fetch that answers at once): CPU time per call");
  const cpuNs: [string, number][] = [];
  const ready = new Response("ok");
  let throttle = false;
  const instant = async () =>
    throttle ? new Response("{}", { status: 429, headers: { "retry-after": "600" } }) : ready;
  const bare = throttledFetch({ limit: "cpu", fetch: instant });
  const cpuVariants: [string, typeof fetch][] = [
    ["memory", throttledFetch({ limit: "cpu", fetch: instant, cooldown: true })],
  ];
  const redisStore = stores[0];
  if (redisStore !== undefined) {
    cpuVariants.push([
      "Redis (announced view)",
      throttledFetch({
        limit: "cpu",
        fetch: instant,
        cooldown: { store: redisStore, partitionSecret: SECRET },
      }),
    ]);
  }
  for (const [, guarded] of cpuVariants) {
    throttle = true;
    await guarded(ok, COOLING).catch(() => {});
    throttle = false;
  }
  // Let the Redis view hear its own announcement before measuring.
  await new Promise((r) => setTimeout(r, 100));
  const perCall = async (call: typeof fetch) => {
    const calls = 20_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i += 1) await call(ok, CALLING);
    return Number(process.hrtime.bigint() - started) / calls;
  };
  for (const [name, guarded] of cpuVariants) {
    const added: number[] = [];
    for (let round = 0; round < 5; round += 1)
      added.push((await perCall(guarded)) - (await perCall(bare)));
    added.sort((a, b) => a - b);
    const ns = added[2] ?? Number.NaN;
    cpuNs.push([name, ns]);
    console.log(
      `  ${`${name}: added per call`.padEnd(40)}${Math.round(ns).toString().padStart(7)} ns`,
    );
  }

  for (const store of stores) await store.close();
  for (const client of clients) client.disconnect();
  return { ratios, cpuNs };
}

/** The issue 23 goal this file measures, as lines for the targets table. */
export function contendedTargets(figures: ContendedFigures): string[] {
  return figures.ratios.map(
    ([name, value]) =>
      `  ${`cooling for someone else, ${name} <= 1.02 (${value.toFixed(3)})`.padEnd(60)}${value <= 1.02 ? "met" : "NOT met"}`,
  );
}

// `tsx bench/contended.ts`: this file alone, against the built package (`npm run build`).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = process.env.BENCH_LIBRARY ?? new URL("../dist/index.js", import.meta.url).href;
  const library = (await import(built)) as Library;
  const upstream = await startUpstream();
  const redis = await startBenchRedis();
  const figures = await benchContended(library, upstream.url, redis?.url);
  console.log("\ntargets");
  for (const line of contendedTargets(figures)) console.log(line);
  upstream.stop();
  redis?.stop();
  process.exit(0);
}
