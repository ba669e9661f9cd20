import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { parseRateLimitedResult } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The first ```ts block after the README's "## Quick start" heading, as written. */
async function quickStart(): Promise<string> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("README has no quick start code block");
  return match[1];
}

let github: TestServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await github?.close();
});

describe("the README's quick start, pasted into a file and run over stdio", () => {
  it("answers a search, then reports GitHub's exhausted quota as a rate_limited result", async () => {
    let calls = 0;
    const reset = Math.floor(Date.now() / 1000) + 37;
    github = await startServer((req, res) => {
      calls += 1;
      expect(req.url).toBe("/search/repositories?q=mcp");
      if (calls === 1) {
        res.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining": "0" });
        res.end(JSON.stringify({ items: [{ full_name: "modelcontextprotocol/typescript-sdk" }] }));
        return;
      }
      res.writeHead(403, {
        "content-type": "application/json",
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "search",
      });
      res.end(JSON.stringify({ message: "API rate limit exceeded for user ID 1." }));
    });

    const file = join(root, "test/.tmp/quickstart-server.ts");
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await quickStart());

    client = new Client({ name: "readme-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", file],
        cwd: root,
        env: { ...(process.env as Record<string, string>), GITHUB_API_URL: github.url },
        stderr: "inherit",
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(["search_repositories"]);

    const ok = await client.callTool({ name: "search_repositories", arguments: { query: "mcp" } });
    expect(ok).toStrictEqual({
      content: [{ type: "text", text: "modelcontextprotocol/typescript-sdk" }],
    });

    const throttled = await client.callTool({
      name: "search_repositories",
      arguments: { query: "mcp" },
    });
    const error = parseRateLimitedResult(throttled);
    expect(error).toMatchObject({
      type: "rate_limited",
      limit: "github_search",
      message: "API rate limit exceeded for user ID 1.",
    });
    // The delay is the time left until the reset, measured when the throttle arrived.
    const left = Math.ceil(reset - Date.now() / 1000);
    expect(error?.retry_after_seconds).toBeGreaterThanOrEqual(left - 1);
    expect(error?.retry_after_seconds).toBeLessThanOrEqual(left + 2);
    expect(error?.resets_at).toBe(new Date(reset * 1000).toISOString());
    expect(throttled.content).toStrictEqual([
      {
        type: "text",
        text: `Rate limited by github_search. Retry after ${error?.retry_after_seconds} seconds. The upstream calls this limit "search". The upstream said: "API rate limit exceeded for user ID 1."`,
      },
    ]);
  });
});
