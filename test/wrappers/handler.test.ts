import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  UpstreamRateLimitedError,
  type UpstreamRateLimitedErrorInit,
  withUpstreamThrottle,
} from "../../src/index.js";
import { widenOutputShape } from "../../src/zod.js";

const throttle = (init: Partial<UpstreamRateLimitedErrorInit> = {}) =>
  new UpstreamRateLimitedError({ limit: "search", status: 429, retryAfterMs: 60_000, ...init });

describe("withUpstreamThrottle", () => {
  it("passes a successful result and the arguments through untouched", async () => {
    const success = { content: [{ type: "text" as const, text: "ok" }] };
    const tool = withUpstreamThrottle(async (args: { q: string }, extra: { id: number }) => {
      expect(args).toStrictEqual({ q: "x" });
      expect(extra).toStrictEqual({ id: 1 });
      return success;
    });
    expect(await tool({ q: "x" }, { id: 1 })).toBe(success);
  });

  it("turns an UpstreamRateLimitedError into the design §2 result", async () => {
    const tool = withUpstreamThrottle(async () => {
      throw throttle({ upstreamMessage: "Too many requests" });
    });
    expect(await tool()).toStrictEqual({
      content: [
        {
          type: "text",
          text: 'Rate limited by search. Retry after 60 seconds. The upstream said: "Too many requests"',
        },
      ],
      structuredContent: {
        error: {
          type: "rate_limited",
          retry_after_seconds: 60,
          limit: "search",
          message: "Too many requests",
        },
      },
      isError: true,
    });
  });

  it("turns a synchronous throw into the result too", async () => {
    const tool = withUpstreamThrottle(() => {
      throw throttle();
    });
    expect(parseRateLimitedResult(await tool())?.retry_after_seconds).toBe(60);
  });

  it("turns a vendor-shaped error into the result, named by the limit option", async () => {
    const tool = withUpstreamThrottle(
      async () => {
        throw Object.assign(new Error("Request failed with status code 429"), {
          response: { status: 429, headers: { "retry-after": "12" }, data: { message: "slow" } },
        });
      },
      { limit: "vendor_api" },
    );
    expect(parseRateLimitedResult(await tool())).toStrictEqual({
      type: "rate_limited",
      retry_after_seconds: 12,
      limit: "vendor_api",
      message: "slow",
    });
  });

  it("lets the option name a limit the error only knew by host or upstream name, not one the author named", async () => {
    const byHost = withUpstreamThrottle(
      async () => {
        throw throttle({ limit: "api.example.com", limitSource: "host" });
      },
      { limit: "search_rate_limit" },
    );
    expect(parseRateLimitedResult(await byHost())?.limit).toBe("search_rate_limit");
    const named = withUpstreamThrottle(
      async () => {
        throw throttle({ limit: "from_fetch", limitSource: "option" });
      },
      { limit: "search_rate_limit" },
    );
    expect(parseRateLimitedResult(await named())?.limit).toBe("from_fetch");
  });

  it.each([
    ["a plain Error", new Error("boom")],
    ["a 404-shaped error", Object.assign(new Error("not found"), { status: 404, headers: {} })],
    ["a string", "oops"],
    ["undefined", undefined],
  ])("rethrows %s unchanged", async (_name, thrown) => {
    const tool = withUpstreamThrottle(async () => {
      throw thrown;
    });
    await expect(tool()).rejects.toBe(thrown);
  });

  describe("placement", () => {
    const shape = { items: z.array(z.string()) };

    it("uses _meta when the tool's outputSchema would reject structuredContent.error", async () => {
      const tool = withUpstreamThrottle(
        async (): Promise<{ content: []; structuredContent: { items: string[] } }> => {
          throw throttle();
        },
        { outputSchema: shape },
      );
      const result = await tool();
      expect(result).not.toHaveProperty("structuredContent");
      expect(
        (result as { _meta?: Record<string, unknown> })._meta?.[RATE_LIMITED_META_KEY],
      ).toMatchObject({
        limit: "search",
        retry_after_seconds: 60,
      });
      expect(parseRateLimitedResult(result)?.limit).toBe("search");
    });

    it("keeps structuredContent when the outputSchema was widened", async () => {
      const tool = withUpstreamThrottle(
        async () => {
          throw throttle();
        },
        { outputSchema: widenOutputShape(shape) },
      );
      const result = await tool();
      expect(result).toHaveProperty("structuredContent.error.limit", "search");
      expect(result).not.toHaveProperty("_meta");
    });
  });

  it("rejects bad options at construction, naming them", () => {
    expect(() => withUpstreamThrottle(async () => 1, { limit: "" })).toThrow(/`limit`/);
    expect(() => withUpstreamThrottle(async () => 1, { maxRetryAfterSeconds: -3 })).toThrow(
      /`maxRetryAfterSeconds`/,
    );
    expect(() => withUpstreamThrottle(async () => 1, { defaultRetryAfterSeconds: -3 })).toThrow(
      /`defaultRetryAfterSeconds`/,
    );
    expect(() => withUpstreamThrottle("nope" as never)).toThrow(/`handler`/);
  });

  // Issue 17 #15: a number silently sent every throttle to _meta.
  it.each([5, "schema", true, null])(
    "rejects outputSchema %j, naming the option",
    (outputSchema) => {
      expect(() => withUpstreamThrottle(async () => 1, { outputSchema })).toThrow(
        expect.objectContaining({
          name: "TypeError",
          message: expect.stringMatching(/^`outputSchema`/),
        }),
      );
    },
  );
});
