import { paired, startUpstream } from "./measure.js";
const lib = await import("../dist/index.js");
const up = await startUpstream();
const url = `${up.url}/throttled`;
const burn = (us: number) => { const end = process.hrtime.bigint() + BigInt(us * 1000); while (process.hrtime.bigint() < end); };
const wrapped = lib.throttledFetch({ limit: "search" });
const junk: unknown[] = [];
const cases = {
  raw: () => fetch(url).then((r) => r.text()),
  burn10: () => fetch(url).then((r) => r.text()).then(() => burn(10)),
  burn20: () => fetch(url).then((r) => r.text()).then(() => burn(20)),
  alloc: () => fetch(url).then((r) => r.text()).then(() => { for (let i = 0; i < 100; i++) junk[i] = { a: i, b: String(i) }; }),
  ours: () => wrapped(url).then(() => {}, () => {}),
};
for (let r = 0; r < 2; r++) {
  const a = await paired(cases, 2000);
  console.log(Object.entries(a).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}µs ${((a.raw ?? 1) / v).toFixed(3)}`).join("  "));
}
up.stop(); process.exit(0);
