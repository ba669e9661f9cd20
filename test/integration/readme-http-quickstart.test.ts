import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { parseRateLimitedResult } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The first ```ts block after the README's "### Over Streamable HTTP" heading, as written. */
async function httpQuickStart(): Promise<string> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Over Streamable HTTP"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("README has no Streamable HTTP quick start");
  return match[1];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

let github: TestServer | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  child?.kill();
  await github?.close();
});

describe("the README's Streamable HTTP quick start, pasted into a file and run", () => {
  it("answers the throttle as a tool result over HTTP, then from the cooldown without calling GitHub", async () => {
    let calls = 0;
    github = await startServer((_req, res) => {
      calls += 1;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
      res.end(JSON.stringify({ message: "You have exceeded a secondary rate limit." }));
    });
    const file = join(root, "test/.tmp/quickstart-http.ts");
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await httpQuickStart());
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      env: { ...process.env, GITHUB_API_URL: github.url, PORT: String(port) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    // Wait for the server to listen.
    for (let i = 0; i < 200; i += 1) {
      const up = await fetch(url, { method: "GET" }).then(
        () => true,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const call = async () => {
      const client = new Client({ name: "readme-http-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        return await client.callTool({ name: "search_repositories", arguments: { query: "mcp" } });
      } finally {
        await client.close();
      }
    };
    const first = await call();
    expect(first.isError).toBe(true);
    expect(parseRateLimitedResult(first)).toMatchObject({
      limit: "github_search",
      retry_after_seconds: 30,
    });
    // A second client, on a new per-request server: answered from the process's cooldown.
    const second = await call();
    expect(parseRateLimitedResult(second)).toMatchObject({ limit: "github_search" });
    expect(parseRateLimitedResult(second)?.retry_after_seconds).toBeLessThanOrEqual(30);
    expect(calls).toBe(1);
  });
});
