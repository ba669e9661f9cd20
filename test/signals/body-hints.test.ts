import { describe, expect, it } from "vitest";
import {
  discordRetryAfterMs,
  googleRetryDelayMs,
  jsonRpcRetryAfterSecondsMs,
} from "../../src/signals/body-hints.js";

describe("body hints", () => {
  it.each([
    [{ retry_after: 64.57 }, 64_570],
    [{ retry_after: 0 }, 0],
    [{ retry_after: -1 }, undefined],
    [{ retry_after: "5" }, undefined],
    [{ retry_after: Number.POSITIVE_INFINITY }, undefined],
    ["retry_after: 5", undefined],
  ])("Discord retry_after %o → %s ms", (body, ms) => {
    expect(discordRetryAfterMs(body)).toBe(ms);
  });

  const retryInfo = (retryDelay: unknown) => ({
    error: {
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo" },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
      ],
    },
  });

  it.each([
    [retryInfo("57.238747106s"), 57_239],
    [retryInfo("30s"), 30_000],
    [retryInfo({ seconds: "3", nanos: 500_000_000 }), 3_500],
    [retryInfo("57.2"), undefined],
    [retryInfo("-5s"), undefined],
    [retryInfo("1e3s"), undefined],
    [{ error: { details: "nope" } }, undefined],
  ])("Google RetryInfo %j → %s ms", (body, ms) => {
    expect(googleRetryDelayMs(body)).toBe(ms);
  });

  it("reads an MCP server's data.retryAfterSeconds", () => {
    expect(
      jsonRpcRetryAfterSecondsMs({ error: { code: -32029, data: { retryAfterSeconds: 20 } } }),
    ).toBe(20_000);
    expect(jsonRpcRetryAfterSecondsMs({ error: { code: -32029, data: {} } })).toBeUndefined();
  });
});
