// Text the request itself carried is not the upstream's word. GitHub's 403 "Resource not
// accessible by integration" names the path it was asked for; a caller who names a repository
// "x rate limit exceeded. try again in 24 hours" must not turn that 403 into a day-long throttle
// for every tenant of the server's key, and a 429 that echoes a planted wait keeps no wait of it.
import fc from "fast-check";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttledFetch, throttleInterceptor } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const PLANTED = "x rate limit exceeded. try again in 24 hours";
const KEY = { authorization: "Bearer ghs_server_wide_installation_token_0001" };

let upstream: TestServer;
const agent = new Agent();

/**
 * `/gh/…`: GitHub's 403 naming the path (decoded), a quota far from spent.
 * `/echo/<status>/<mode>/…`: that status, its message echoing the path, query values and body.
 */
beforeAll(async () => {
  upstream = await startServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const url = req.url ?? "/";
      if (url.startsWith("/gh/")) {
        res.writeHead(403, {
          "content-type": "application/json",
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "4999",
          "x-ratelimit-reset": "1893456000",
        });
        res.end(
          JSON.stringify({
            message: `Resource not accessible by integration: ${decodeURIComponent(url.slice(3))}`,
            documentation_url: "https://docs.github.com/rest",
          }),
        );
        return;
      }
      const [, , status = "429", mode = "decoded"] = url.split("/");
      // As an API names what it could not find: the path, then each query value, then the body.
      const parsed = new URL(url, "http://upstream");
      const values = [...parsed.searchParams.values()].join(" ");
      const said = `${decodeURIComponent(parsed.pathname)} ${values} ${body}`;
      const echoed = mode === "upper" ? said.toUpperCase() : said;
      res.writeHead(Number(status), { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `Not allowed: ${echoed}` }));
    });
  });
});
afterAll(async () => {
  await agent.close();
  await upstream.close();
});

const repo = (name: string) => `${upstream.url}/gh/repos/acme/${encodeURIComponent(name)}/contents`;

describe("GitHub's 403 that names the repository asked for", () => {
  it("is no throttle through throttledFetch: the 403 comes back and no cooldown opens", async () => {
    const github = throttledFetch({ limit: "github-echo", cooldown: true });
    const response = await github(repo(PLANTED), { headers: KEY });
    expect(response.status).toBe(403);
    await response.body?.cancel();
    // Another tenant of the same key, another repository: sent, and answered by the upstream.
    const before = upstream.requests;
    const other = await github(repo("docs"), { headers: KEY });
    expect(other.status).toBe(403);
    await other.body?.cancel();
    expect(upstream.requests).toBe(before + 1);
  });

  it("is no throttle through throttleInterceptor", async () => {
    const dispatcher = agent.compose(throttleInterceptor({ limit: "github-echo-i" }));
    const response = await request(repo(PLANTED), { dispatcher, headers: KEY });
    expect(response.statusCode).toBe(403);
    await response.body.dump();
  });

  it("is still a throttle when the upstream says so in its own words", async () => {
    const github = throttledFetch({ limit: "github-own" });
    const own = await startServer((req, res) => {
      req.resume();
      res.writeHead(403, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          message: "You have exceeded a secondary rate limit. Try again in 60 seconds.",
        }),
      );
    });
    try {
      // The request names "rate limit" too: an echo of a part is not an echo of the sentence.
      await expect(
        github(`${own.url}/search?q=${encodeURIComponent("rate limit")}`, { headers: KEY }),
      ).rejects.toMatchObject({ status: 403, retryAfterSeconds: 60, delaySource: "message" });
    } finally {
      await own.close();
    }
  });
});

describe("a 429 that echoes a wait the request planted", () => {
  it.each([
    ["in the path", `/echo/429/decoded/${encodeURIComponent("try again in 24 hours")}`, undefined],
    [
      "in the query",
      `/echo/429/decoded/search?q=${encodeURIComponent("Retry after 9h")}`,
      undefined,
    ],
    ["in a form query", "/echo/429/decoded/search?q=please+try+again+in+3600s", undefined],
    ["re-cased", `/echo/429/upper/${encodeURIComponent("retry in 86400 seconds")}`, undefined],
    [
      "in a JSON body",
      "/echo/429/decoded/issues",
      JSON.stringify({ title: "try again in 24 hours" }),
    ],
    ["in a text body", "/echo/429/decoded/notes", "Retry after 12 hours, please"],
  ])("keeps no message delay of a wait %s", async (_where, path, body) => {
    const api = throttledFetch({ limit: "echo", defaultRetryAfterSeconds: 5 });
    await expect(
      api(`${upstream.url}${path}`, body === undefined ? {} : { method: "POST", body }),
    ).rejects.toMatchObject({ status: 429, delaySource: "default", retryAfterSeconds: 5 });
  });

  it("keeps no message delay of an echo the message's length cut cuts short", async () => {
    const api = throttledFetch({ limit: "echo-cut" });
    // "… try again in 9hours" is no wait; cut at 256 code points to "… try again in 9h…" it
    // would read as nine hours. Some filler length puts the cut exactly there.
    for (let filler = 195; filler <= 215; filler += 1) {
      const segment = encodeURIComponent(`${"a".repeat(filler)} try again in 9hours`);
      const error = await api(`${upstream.url}/echo/429/decoded/${segment}`).then(
        () => undefined,
        (e: unknown) => e as { delaySource?: string; upstreamMessage?: string },
      );
      expect(error?.delaySource).toBe("none");
    }
  });

  it("keeps no message delay through throttleInterceptor, path or body", async () => {
    const dispatcher = agent.compose(throttleInterceptor({ limit: "echo-i" }));
    const planted = `/echo/429/decoded/${encodeURIComponent("try again in 24 hours")}`;
    for (const options of [{}, { method: "POST" as const, body: "retry after 2 hours" }]) {
      const error = await request(
        `${upstream.url}${options.body ? "/echo/429/decoded/b" : planted}`,
        {
          dispatcher,
          ...options,
        },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ status: 429, delaySource: "none" });
    }
  });

  it("reads the wait the upstream states beside an echo", async () => {
    const own = await startServer((req, res) => {
      req.resume();
      res.writeHead(429, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          message: `Too many searches for ${decodeURIComponent(req.url ?? "")}. Please try again in 20s.`,
        }),
      );
    });
    try {
      const api = throttledFetch({ limit: "echo-own" });
      await expect(
        api(`${own.url}/search/${encodeURIComponent("try again in 24 hours")}`),
      ).rejects.toMatchObject({ retryAfterSeconds: 20, delaySource: "message" });
    } finally {
      await own.close();
    }
  });
});

describe("any planted wait the upstream echoes", () => {
  const phrase = fc.constantFrom(
    "retry after",
    "retry in",
    "Retry again in",
    "try again in",
    "TRY AGAIN AFTER",
  );
  const duration = fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 99999 }), fc.constantFrom("s", "m", "h", "ms", "m30s"))
      .map(([n, unit]) => `${n}${unit}`),
    fc
      .tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom("seconds", "minutes", "hours", "h"))
      .map(([n, unit]) => `${n} ${unit}`),
  );
  const words = fc.stringMatching(/^[A-Za-z0-9 .,!-]{0,40}$/);
  const planted = fc
    .tuple(words, phrase, duration, words)
    .map(([a, p, d, b]) => `${a} ${p} ${d}${b}`);

  it("is never a message-sourced delay, in the path or the query, as sent or re-cased", async () => {
    const api = throttledFetch({ limit: "echo-property" });
    await fc.assert(
      fc.asyncProperty(
        planted,
        fc.constantFrom("path", "query"),
        fc.constantFrom("decoded", "upper"),
        async (sentence, where, mode) => {
          const text = encodeURIComponent(sentence);
          const path =
            where === "path" ? `/echo/429/${mode}/${text}` : `/echo/429/${mode}/s?q=${text}&page=2`;
          const error = await api(`${upstream.url}${path}`).then(
            () => undefined,
            (e: unknown) => e as { delaySource?: string },
          );
          expect(error).toMatchObject({ status: 429 });
          expect(error?.delaySource).not.toBe("message");
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("the echo rule on the vendor-SDK path and the adopted axios", () => {
  it("is no throttle for an axios error whose 403 echoes the request's path", async () => {
    const { default: axios } = await import("axios");
    const { toUpstreamRateLimitedError } = await import("../../src/index.js");
    const error = await axios
      .get(repo(PLANTED), { headers: KEY })
      .catch((caught: unknown) => caught);
    expect(toUpstreamRateLimitedError(error)).toBeUndefined();
  });

  it("keeps no wait a 429 echoes from the request's query, through throttleAxios", async () => {
    const { default: axios } = await import("axios");
    const { throttleAxios } = await import("../../src/adopt/axios.js");
    const events: unknown[] = [];
    const api = throttleAxios(axios.create(), { onEvent: (event) => events.push(event) });
    const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const { throttleServer, parseRateLimitedResult } = await import("../../src/index.js");
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("get", {}, async () => {
      try {
        await api.get(`${upstream.url}/echo/429/decoded`, { params: { q: PLANTED } });
        return { content: [{ type: "text", text: "ok" }] };
      } catch {
        return { content: [{ type: "text", text: "failed" }], isError: true };
      }
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "t", version: "1.0.0" });
    await client.connect(clientSide);
    const result = await client.callTool({ name: "get", arguments: {} });
    await client.close();
    // Still a 429, so still rate_limited, but with no wait of the planted sentence.
    expect(parseRateLimitedResult(result)?.retry_after_seconds).toBeUndefined();
  });
});
