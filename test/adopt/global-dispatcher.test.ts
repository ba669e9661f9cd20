import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { observed } from "../../src/adopt/global-dispatcher.js";
import { isUpstreamRateLimitedError } from "../../src/errors/upstream-rate-limited-error.js";
import { CallRecord } from "../../src/internal/call-scope.js";
import { throttleSettings } from "../../src/wrappers/settings.js";

const settings = throttleSettings({});
const text = fc.string({ maxLength: 40 });
const rawHeaders = fc.array(fc.tuple(text, fc.oneof(text, fc.array(text, { maxLength: 3 }))), {
  maxLength: 8,
});
const chunks = fc.array(fc.uint8Array({ maxLength: 256 }), { maxLength: 6 });

/** A handler that records every call it gets, in undici 6's or 7's shape. */
function recorder() {
  const calls: unknown[][] = [];
  const log =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return true;
    };
  return {
    calls,
    v6: { onHeaders: log("onHeaders"), onData: log("onData"), onComplete: log("onComplete") },
    v7: {
      onResponseStart: log("onResponseStart"),
      onResponseData: log("onResponseData"),
      onResponseEnd: log("onResponseEnd"),
    },
  };
}

describe("the global dispatcher's observer", () => {
  it("hands the caller's handler exactly what undici sent, and notes at most a throttle, for any response", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        rawHeaders,
        chunks,
        (status, headers, body) => {
          const record = new CallRecord();
          const seen = recorder();
          const flat = headers.flatMap(([name, value]) => [Buffer.from(name), value]);
          const v6 = observed(
            seen.v6,
            { origin: "https://api.example" },
            record,
            settings,
          ) as typeof seen.v6;
          v6.onHeaders(status, flat, () => {}, "");
          for (const chunk of body) v6.onData(chunk);
          v6.onComplete([]);
          const record7 = new CallRecord();
          const v7 = observed(
            seen.v7,
            { origin: "https://api.example" },
            record7,
            settings,
          ) as typeof seen.v7;
          const controller = {};
          v7.onResponseStart(controller, status, Object.fromEntries(headers), "");
          for (const chunk of body) v7.onResponseData(controller, chunk);
          v7.onResponseEnd(controller, {});
          const expected = [
            ["onHeaders", status, flat, expect.any(Function), ""],
            ...body.map((chunk) => ["onData", chunk]),
            ["onComplete", []],
            ["onResponseStart", controller, status, Object.fromEntries(headers), ""],
            ...body.map((chunk) => ["onResponseData", controller, chunk]),
            ["onResponseEnd", controller, {}],
          ];
          expect(seen.calls).toEqual(expected);
          for (const r of [record, record7]) {
            if (r.last !== undefined) expect(isUpstreamRateLimitedError(r.last)).toBe(true);
            if (status !== 429 && status < 400) expect(r.last).toBeUndefined();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("notes a 429 with its delay and the upstream's words from the body it saw", () => {
    const record = new CallRecord();
    const handler = observed(
      recorder().v6,
      { origin: "https://api.example" },
      record,
      settings,
    ) as {
      onHeaders(...args: unknown[]): void;
      onData(chunk: Uint8Array): void;
      onComplete(trailers: unknown): void;
    };
    handler.onHeaders(429, [Buffer.from("Retry-After"), Buffer.from("7")], () => {}, "");
    handler.onData(Buffer.from('{"error":{"message":"slow'));
    handler.onData(Buffer.from(' down"}}'));
    handler.onComplete([]);
    expect(record.last).toMatchObject({
      retryAfterSeconds: 7,
      upstreamMessage: "slow down",
      host: "api.example",
    });
  });
});
