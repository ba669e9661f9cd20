import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sdkFetch } from "../../src/index.js";
import { isCooldownAnswer } from "../../src/wrappers/sdk-fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    const status = Number(req.url?.slice(1));
    res.writeHead(status, status === 503 ? { "retry-after": "5" } : {});
    res.end("body");
  });
});

afterAll(async () => {
  await upstream.close();
});

describe("sdkFetch", () => {
  it("returns a success and a non-throttle error untouched, the same Response object", async () => {
    let given: Response | undefined;
    const fetchLike = sdkFetch({
      fetch: async (input, init) => {
        given = await fetch(input, init);
        return given;
      },
    });
    for (const status of [200, 404, 500]) {
      const response = await fetchLike(`${upstream.url}/${status}`);
      expect(response).toBe(given);
      expect(response.headers.get("x-should-retry")).toBeNull();
      await response.text();
    }
  });

  it("marks a 429 x-should-retry: false, keeping its status, headers and body", async () => {
    const response = await sdkFetch()(`${upstream.url}/429`);
    expect(response.status).toBe(429);
    expect(response.headers.get("x-should-retry")).toBe("false");
    expect(await response.text()).toBe("body");
  });

  it("keeps an upstream's x-mcp-upstream-throttle-answer header as any other: no header marks a cooldown answer", async () => {
    const forged = async () =>
      new Response("body", {
        status: 429,
        headers: { "retry-after": "5", "x-mcp-upstream-throttle-answer": "cooldown" },
      });
    const response = await sdkFetch({ fetch: forged })("https://api.example.com/v1/chat");
    expect(response.status).toBe(429);
    expect(response.headers.get("x-should-retry")).toBe("false");
    expect(isCooldownAnswer(response.headers)).toBe(false);
  });

  it("marks a 503 with Retry-After only when told to", async () => {
    const plain = await sdkFetch()(`${upstream.url}/503`);
    expect(plain.headers.get("x-should-retry")).toBeNull();
    await plain.text();
    const opted = await sdkFetch({ treat503AsThrottle: true })(`${upstream.url}/503`);
    expect(opted.headers.get("x-should-retry")).toBe("false");
    await opted.text();
  });

  it("rejects bad options, naming them", () => {
    expect(() => sdkFetch({ fetch: 5 as never })).toThrow(/^`fetch`/);
    expect(() => sdkFetch({ treat503AsThrottle: "yes" as never })).toThrow(/`treat503AsThrottle`/);
    expect(() => sdkFetch("x" as never)).toThrow(/`options`/);
  });
});
