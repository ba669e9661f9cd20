import { Agent, request } from "undici";
import { startUpstream } from "./measure.js";
const lib = await import("../dist/index.js");
const up = await startUpstream();
const agent = new Agent({ keepAliveTimeout: 60_000 });
const d = agent.compose(lib.throttleInterceptor({ limit: "search" }));
const bare = new Agent({ keepAliveTimeout: 60_000 });
const url = `${up.url}/throttled`;
const mode = process.argv[2];
const t = performance.now();
for (let i = 0; i < 6000; i++) {
  if (mode === "raw") await request(url, { dispatcher: bare }).then((r) => r.body.text());
  else await request(url, { dispatcher: d }).catch(() => {});
}
console.log(mode, ((performance.now() - t) / 6000 * 1000).toFixed(1), "µs/call");
up.stop(); process.exit(0);
