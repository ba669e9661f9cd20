// The loopback upstream the benchmarks call, run in its own process so its work does not share
// the benchmark's event loop. Prints its port on stdout, then serves until stdin closes.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const SUCCESS = JSON.stringify({ query: "q", hits: ["first result", "second result"] });
const THROTTLED = JSON.stringify({ message: "This endpoint has been requested too many times." });

const server = createServer((req, res) => {
  if (req.url?.startsWith("/throttled")) {
    res.writeHead(429, {
      "content-type": "application/json",
      "retry-after": "60",
      "x-ratelimit-remaining": "0",
    });
    res.end(THROTTLED);
    return;
  }
  res.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining": "4999" });
  res.end(SUCCESS);
});
server.keepAliveTimeout = 60_000;

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
