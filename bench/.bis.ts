import { paired, startUpstream } from "./measure.js";
const lib = await import("../dist/index.js");
const rb = await import("../dist/wrappers/read-body.js");
const wire = await import("../dist/wrappers/wire.js");
const cr = await import("../dist/untrusted/credentials.js");
const op = await import("../dist/internal/options.js");
const up = await startUpstream();
const url = `${up.url}/throttled`;
const settings = op.throttleSettings({ limit: "search" });
const wrapped = lib.throttledFetch({ limit: "search" });
const read = async () => { const r = await fetch(url); const b = await rb.readThrottleBody(r, { treat503AsThrottle: false, timeoutMs: 1000 }); return [r, b] as const; };
const cases = {
  raw: () => fetch(url).then((r) => r.text()),
  read: () => read(),
  detect: async () => { const [r, b] = await read(); return wire.throttleFromWire({ status: r.status, headers: r.headers, body: b?.body }, { host: "127.0.0.1", credentials: () => cr.fetchCredentials(url, undefined, []) }, settings); },
  detectThrow: async () => { const [r, b] = await read(); const e = wire.throttleFromWire({ status: r.status, headers: r.headers, body: b?.body }, { host: "127.0.0.1", credentials: () => cr.fetchCredentials(url, undefined, []) }, settings); try { throw e; } catch {} },
  ours: () => wrapped(url).then(() => {}, () => {}),
};
for (let r = 0; r < 2; r++) {
  const a = await paired(cases, 2000);
  console.log(Object.entries(a).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}µs ${((a.raw ?? 1) / v).toFixed(3)}`).join("  "));
}
up.stop(); process.exit(0);
