import { paired, startUpstream } from "./measure.js";
const rb = await import("../dist/wrappers/read-body.js");
const er = await import("../dist/errors/upstream-rate-limited-error.js");
const up = await startUpstream();
const url = `${up.url}/throttled`;
const read = async () => { const r = await fetch(url); const b = await rb.readThrottleBody(r, { treat503AsThrottle: false, timeoutMs: 1000 }); return [r, b] as const; };
const init = { limit: "search", limitSource: "option" as const, status: 429, delaySource: "retry-after" as const, retryAfterMs: 60000, retryAfterSeconds: 60, upstreamMessage: "This endpoint has been requested too many times.", host: "127.0.0.1" };
const cases = {
  read: () => read(),
  object: async () => { await read(); return { ...init }; },
  error: async () => { await read(); return new Error("Upstream rate limit"); },
  error0: async () => { await read(); const l = Error.stackTraceLimit; Error.stackTraceLimit = 0; try { return new Error("Upstream rate limit"); } finally { Error.stackTraceLimit = l; } },
  ours: async () => { await read(); return er.withoutFrames(() => new er.UpstreamRateLimitedError(init)); },
};
for (let r = 0; r < 3; r++) {
  const a = await paired(cases, 2000);
  console.log(Object.entries(a).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}µs ${((a.read ?? 1) / v).toFixed(3)}`).join("  "));
}
up.stop(); process.exit(0);
