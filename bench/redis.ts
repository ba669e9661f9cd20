// A Redis for the benchmark: REDIS_URL if set, else a throwaway redis-server on 127.0.0.1.

import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

export async function startBenchRedis(): Promise<{ url: string; stop: () => void } | undefined> {
  if (process.env.REDIS_URL !== undefined) return { url: process.env.REDIS_URL, stop: () => {} };
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (data: Buffer) => {
      output += data.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}
