import { paired, startUpstream } from "./measure.js";
const rb = await import("../dist/wrappers/read-body.js");
const det = await import("../dist/signals/detect.js");
const er = await import("../dist/errors/upstream-rate-limited-error.js");
const cr = await import("../dist/untrusted/credentials.js");
const hd = await import("../dist/signals/headers.js");
const up = await startUpstream();
const url = `${up.url}/throttled`;
const read = async () => { const r = await fetch(url); const b = await rb.readThrottleBody(r, { treat503AsThrottle: false, timeoutMs: 1000 }); return [r, b] as const; };
const opts = (secrets: unknown) => ({ maxMs: 86400000, treat503AsThrottle: false, upstreamText: "message", secrets });
const cases = {
  read: () => read(),
  creds: async () => { await read(); return cr.fetchCredentials(url, undefined, []).matcher(); },
  headersOnly: async () => { const [r] = await read(); return det.detect({ status: r.status, headers: r.headers, body: undefined }, opts(cr.fetchCredentials(url, undefined, []).matcher())); },
  detect: async () => { const [r, b] = await read(); return det.detect({ status: r.status, headers: r.headers, body: b?.body }, opts(cr.fetchCredentials(url, undefined, []).matcher())); },
  detectErr: async () => { const [r, b] = await read(); const s = det.detect({ status: r.status, headers: r.headers, body: b?.body }, opts(cr.fetchCredentials(url, undefined, []).matcher())); return er.errorFromSignal(s, { limit: "search", host: "127.0.0.1", defaultRetryAfterSeconds: undefined, maxRetryAfterSeconds: 86400 }); },
};
for (let r = 0; r < 3; r++) {
  const a = await paired(cases, 2000);
  console.log(Object.entries(a).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}µs ${((a.read ?? 1) / v).toFixed(3)}`).join("  "));
}
up.stop(); process.exit(0);
