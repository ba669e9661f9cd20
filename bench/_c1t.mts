import { paired, startUpstream } from "./measure.js";
const lib = await import("../dist/index.js");
const up = await startUpstream();
const url = `${up.url}/throttled`;
const ours = lib.throttledFetch({ limit: "search" });
const swallow = (p: Promise<unknown>) => p.then(() => {}, () => {});
for (let i = 0; i < 3; i++) {
  const r = await paired({ raw: () => fetch(url).then((x) => x.text()), ours: () => swallow(ours(url)) }, 2000);
  console.log(Object.entries(r).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}µs`).join("  "), (r.raw! / r.ours!).toFixed(3));
}
up.stop(); process.exit(0);
