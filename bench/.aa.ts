import { paired, pairedConcurrent, startUpstream } from "./measure.js";
const lib = await import("../dist/index.js");
const up = await startUpstream();
const ok = `${up.url}/ok?q=q`;
const t = (n: string) => ({ headers: { authorization: `Bearer sk_live_${n}0123456789abcdef0123456789`, "content-type": "application/json" } });
const plain = lib.throttledFetch({ limit: "c" });
const plain2 = lib.throttledFetch({ limit: "c" });
const guarded = lib.throttledFetch({ limit: "c", cooldown: true });
const idle = lib.throttledFetch({ limit: "idle", cooldown: true });
await guarded(`${up.url}/throttled`, t("AAAA")).catch(() => {});
const body = (r: Response) => r.arrayBuffer();
const cases = {
  plain: async () => body(await plain(ok, t("BBBB"))),
  plain2: async () => body(await plain2(ok, t("BBBB"))),
  idle: async () => body(await idle(ok, t("BBBB"))),
  cooling: async () => body(await guarded(ok, t("BBBB"))),
};
for (let r = 0; r < 2; r++) {
  const a = await paired(cases, 3000);
  console.log("C=1", Object.entries(a).map(([k, v]) => `${k} ${(v / (a.plain ?? 1)).toFixed(3)}`).join("  "));
  const b = await pairedConcurrent(cases, 16, 150);
  console.log("C=16", Object.entries(b).map(([k, v]) => `${k} ${(v / (b.plain ?? 1)).toFixed(3)}`).join("  "));
}
up.stop(); process.exit(0);
