// npm run soak: many throttled calls, small and 1 MiB bodies mixed, through a pool of 4
// connections, via throttledFetch and via throttleInterceptor. Checks that every call ends as a
// throttle, that the upstream's open sockets fall back to at most the pool size, and that file
// descriptors and heap are flat; prints the numbers and exits 1 if a check fails.
// SOAK_CALLS sets the size (default 10,000 per wrapper; CI runs a small one).

import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request, fetch as undiciFetch } from "undici";
import { isUpstreamRateLimitedError, throttledFetch, throttleInterceptor } from "../src/index.js";

const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const POOL = 4;
const IN_FLIGHT = 16;
const ONE_MIB = 1024 * 1024;
const SMALL = JSON.stringify({ message: "This endpoint has been requested too many times." });
const BIG_CHUNK = Buffer.alloc(64 * 1024, "x");

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc (npm run soak does)");

const open = new Set<Socket>();
const server = createServer((req, res) => {
  if (req.url?.startsWith("/big")) {
    res.writeHead(429, {
      "content-type": "text/plain",
      "retry-after": "30",
      "content-length": String(ONE_MIB),
    });
    let sent = 0;
    const pump = () => {
      while (sent < ONE_MIB) {
        sent += BIG_CHUNK.length;
        if (!res.write(BIG_CHUNK)) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("error", () => {});
    pump();
    return;
  }
  res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
  res.end(SMALL);
});
server.keepAliveTimeout = 60_000;
server.on("connection", (socket) => {
  open.add(socket);
  socket.on("close", () => open.delete(socket));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const fds = () => readdirSync("/proc/self/fd").length;
const heapMiB = () => {
  gc();
  return process.memoryUsage().heapUsed / ONE_MIB;
};

/** Runs CALLS calls, IN_FLIGHT at a time, every 10th with a 1 MiB body; counts the throttles. */
async function soak(
  call: (url: string) => Promise<unknown>,
): Promise<{ throttles: number; other: unknown[] }> {
  let next = 0;
  let throttles = 0;
  const other: unknown[] = [];
  const worker = async () => {
    while (next < CALLS) {
      const index = next++;
      const url = `${base}/${index % 10 === 0 ? "big" : "small"}`;
      try {
        await call(url);
        other.push("resolved");
      } catch (error) {
        if (isUpstreamRateLimitedError(error)) throttles += 1;
        else other.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { throttles, other };
}

interface Phase {
  name: string;
  call: (url: string) => Promise<unknown>;
  close: () => Promise<void>;
}

const fetchAgent = new Agent({ connections: POOL, keepAliveTimeout: 60_000 });
const throttledUndiciFetch = throttledFetch({
  fetch: ((input: string, init?: object) =>
    undiciFetch(input, { ...init, dispatcher: fetchAgent })) as unknown as typeof fetch,
});
const interceptAgent = new Agent({ connections: POOL, keepAliveTimeout: 60_000 });
const intercepted = interceptAgent.compose(throttleInterceptor());

const phases: Phase[] = [
  {
    name: "throttledFetch",
    call: (url) => throttledUndiciFetch(url),
    close: () => fetchAgent.close(),
  },
  {
    name: "throttleInterceptor",
    call: (url) => request(url, { dispatcher: intercepted }),
    close: () => interceptAgent.close(),
  },
];

console.log(
  `soak: ${CALLS} throttled calls per wrapper, ${IN_FLIGHT} in flight, pool of ${POOL}, every 10th body 1 MiB`,
);
const failures: string[] = [];
// A short warm-up so the baseline includes what any first call loads.
await phases[0]?.call(`${base}/small`).catch(() => {});
const fdsBefore = fds();
const heapBefore = heapMiB();
for (const phase of phases) {
  const started = performance.now();
  const { throttles, other } = await soak(phase.call);
  const seconds = (performance.now() - started) / 1000;
  await sleep(200);
  const sockets = open.size;
  console.log(
    `  ${phase.name.padEnd(20)} ${throttles}/${CALLS} throttles in ${seconds.toFixed(1)} s (${Math.round(CALLS / seconds)}/s); ` +
      `upstream sockets open after: ${sockets}`,
  );
  if (throttles !== CALLS)
    failures.push(
      `${phase.name}: ${CALLS - throttles} calls did not end as throttles: ${String(other[0])}`,
    );
  if (sockets > POOL)
    failures.push(`${phase.name}: ${sockets} sockets open after the run, pool is ${POOL}`);
  await phase.close();
  await sleep(100);
}
const fdsAfter = fds();
const heapAfter = heapMiB();
console.log(`  file descriptors: ${fdsBefore} before, ${fdsAfter} after`);
console.log(
  `  heap used after GC: ${heapBefore.toFixed(1)} MiB before, ${heapAfter.toFixed(1)} MiB after`,
);
if (fdsAfter > fdsBefore + 2)
  failures.push(`file descriptors grew from ${fdsBefore} to ${fdsAfter}`);
if (heapAfter > heapBefore + 16)
  failures.push(`heap grew from ${heapBefore.toFixed(1)} to ${heapAfter.toFixed(1)} MiB`);

server.closeAllConnections();
server.close();
if (failures.length > 0) {
  console.error(`soak failed:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("soak passed");
process.exit(0);
