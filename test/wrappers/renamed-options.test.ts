// The options renamed in 0.3.0 keep their old names for one minor release: each old name does
// what the new one does, and giving both with different values throws a TypeError naming both.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  detectThrottle,
  isUpstreamRateLimitedError,
  throttledFetch,
  throttleInterceptor,
  throttleServer,
  toUpstreamRateLimitedError,
  UpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";
import { renamedOption } from "../../src/internal/options.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    if (req.url === "/graphql") {
      // GitHub GraphQL's spent quota: a 200 whose error envelope states the throttle.
      res.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining": "0" });
      res.end(JSON.stringify({ errors: [{ type: "RATE_LIMITED", message: "API rate limit" }] }));
      return;
    }
    res.writeHead(429, {
      "content-type": "application/json",
      "retry-after": "30",
      "x-ratelimit-resource": "core_search",
    });
    res.end(JSON.stringify({ message: "slow down please" }));
  });
});

afterAll(async () => {
  await upstream.close();
});

async function thrown(call: Promise<unknown>): Promise<UpstreamRateLimitedError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isUpstreamRateLimitedError(error)) throw new Error(`no throttle thrown: ${String(error)}`);
  return error;
}

const bothNames = (old: string, name: string) => new RegExp(`\`${old}\`.*\`${name}\``);

describe("renamedOption", () => {
  it("takes the new name, else the old one, and both when they agree", () => {
    expect(renamedOption({ fresh: 1 }, "fresh", "stale")).toBe(1);
    expect(renamedOption({ stale: 2 }, "fresh", "stale")).toBe(2);
    expect(renamedOption({ fresh: 3, stale: 3 }, "fresh", "stale")).toBe(3);
    expect(renamedOption({}, "fresh", "stale")).toBeUndefined();
  });

  it("throws a TypeError naming both when the two names hold different values", () => {
    expect(() => renamedOption({ fresh: 1, stale: 2 }, "fresh", "stale")).toThrow(TypeError);
    expect(() => renamedOption({ fresh: 1, stale: 2 }, "fresh", "stale")).toThrow(
      bothNames("stale", "fresh"),
    );
  });
});

describe("relayUpstreamText, formerly upstreamText", () => {
  it("keeps the upstream's limit name and message out of the error under either name", async () => {
    const relayed = await thrown(throttledFetch()(`${upstream.url}/search`));
    expect([relayed.limit, relayed.upstreamMessage]).toStrictEqual([
      "core_search",
      "slow down please",
    ]);
    for (const options of [{ relayUpstreamText: "none" }, { upstreamText: "none" }] as const) {
      const quiet = await thrown(throttledFetch(options)(`${upstream.url}/search`));
      expect([quiet.limit, quiet.upstreamMessage]).toStrictEqual(["127.0.0.1", undefined]);
    }
  });

  it("keeps the upstream's message out of detectThrottle's signal under either name", () => {
    const response = { status: 429, headers: { "retry-after": "5" }, body: { message: "hi" } };
    expect(detectThrottle(response)?.message).toBe("hi");
    expect(detectThrottle(response, { relayUpstreamText: "none" })?.message).toBeUndefined();
    expect(detectThrottle(response, { upstreamText: "none" })?.message).toBeUndefined();
  });

  it("keeps the upstream's message out of a result under either name", () => {
    const error = new UpstreamRateLimitedError({
      limit: "a",
      status: 429,
      upstreamMessage: "said by the upstream",
    });
    const message = (options: object) =>
      error.toToolResult(options).structuredContent?.error.message;
    expect(message({})).toBe("said by the upstream");
    expect(message({ relayUpstreamText: "none" })).not.toBe("said by the upstream");
    expect(message({ upstreamText: "none" })).toBe(message({ relayUpstreamText: "none" }));
    expect(() => message({ relayUpstreamText: "none", upstreamText: "sanitized" })).toThrow(
      bothNames("upstreamText", "relayUpstreamText"),
    );
  });

  it("throws a TypeError naming both at construction when the two disagree, on every door", () => {
    const both = { relayUpstreamText: "none", upstreamText: "sanitized" } as const;
    const doors: [string, () => unknown][] = [
      ["throttledFetch", () => throttledFetch(both)],
      ["throttleInterceptor", () => throttleInterceptor(both)],
      ["withUpstreamThrottle", () => withUpstreamThrottle(async () => ({ content: [] }), both)],
      ["detectThrottle", () => detectThrottle({ status: 429, headers: {} }, both)],
      ["toUpstreamRateLimitedError", () => toUpstreamRateLimitedError(new Error("x"), both)],
    ];
    for (const [door, make] of doors) {
      expect(make, door).toThrow(TypeError);
      expect(make, door).toThrow(bothNames("upstreamText", "relayUpstreamText"));
    }
  });

  it("names the name that was given when its value is wrong", () => {
    expect(() => throttledFetch({ upstreamText: "all" as never })).toThrow(/`upstreamText`/);
    expect(() => throttledFetch({ relayUpstreamText: "all" as never })).toThrow(
      /`relayUpstreamText`/,
    );
  });

  it("is taken by throttleServer under either name", () => {
    expect(() =>
      throttleServer({ setRequestHandler: () => {} } as never, {
        relayUpstreamText: "none",
        upstreamText: "sanitized",
      }),
    ).toThrow(bothNames("upstreamText", "relayUpstreamText"));
  });
});

describe("inspectSuccessBody, formerly readSuccessBody", () => {
  it("finds the throttle a 2xx body states under either name, and none without", async () => {
    const url = `${upstream.url}/graphql`;
    expect((await throttledFetch()(url)).status).toBe(200);
    for (const options of [{ inspectSuccessBody: true }, { readSuccessBody: true }]) {
      expect(await thrown(throttledFetch(options)(url))).toBeInstanceOf(UpstreamRateLimitedError);
    }
  });

  it("throws a TypeError naming both when the two disagree", () => {
    const both = { inspectSuccessBody: true, readSuccessBody: false };
    expect(() => throttledFetch(both)).toThrow(TypeError);
    expect(() => throttledFetch(both)).toThrow(bothNames("readSuccessBody", "inspectSuccessBody"));
    expect(() => throttleInterceptor(both)).toThrow(
      bothNames("readSuccessBody", "inspectSuccessBody"),
    );
  });

  it("names the name that was given when its value is wrong", () => {
    expect(() => throttledFetch({ readSuccessBody: "yes" as never })).toThrow(/`readSuccessBody`/);
    expect(() => throttledFetch({ inspectSuccessBody: "yes" as never })).toThrow(
      /`inspectSuccessBody`/,
    );
  });
});
