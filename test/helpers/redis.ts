import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** Whether Debian's redis-server (or any on PATH) is installed here. */
export const hasRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A throwaway redis-server on 127.0.0.1, nothing persisted, for one test file. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
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
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/**
 * Makes a user of the Redis at `url` that may do everything but run scripts (as some managed
 * services configure it), through `admin`; answers the URL that logs in as that user.
 */
export async function userWithoutScripts(
  admin: { command(...args: string[]): Promise<unknown> },
  url: string,
): Promise<string> {
  await admin.command("ACL", "SETUSER", "noscripts", "on", ">secret", "~*", "&*", "+@all");
  await admin.command("ACL", "SETUSER", "noscripts", "-@scripting");
  return url.replace("redis://", "redis://noscripts:secret@");
}
