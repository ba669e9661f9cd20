import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageDelayMs } from "../../src/signals/message-delay.js";

describe("messageDelayMs: a wait stated in the upstream's words", () => {
  it.each([
    [
      "Firecrawl",
      "Rate limit exceeded. Upgrade your plan or please retry after 37s, resets at Mon",
      37_000,
    ],
    [
      "OpenAI",
      "Rate limit reached for gpt-4o on requests per min (RPM). Please try again in 120ms.",
      120,
    ],
    [
      "OpenAI (tokens)",
      "Limit 30000, Used 29000, Requested 2000. Please try again in 6.5s.",
      6_500,
    ],
    ["Groq", "Rate limit reached on tokens per day (TPD). Please try again in 7m12.48s.", 432_480],
    ["Gemini", "You exceeded your current quota. Please retry in 49.1s.", 49_100],
    ["spelled seconds", "Too many requests. Try again in 20 seconds.", 20_000],
    ["spelled minutes", "Retry after 2 minutes", 120_000],
    ["one hour", "Daily quota used. Try again in 1 hour.", 3_600_000],
    ["compact minutes", "Slow down: try again in 1m30s", 90_000],
    ["the first stated wait", "Retry after 5s (or try again in 10 seconds)", 5_000],
  ])("reads %s", (_, text, ms) => {
    expect(messageDelayMs(text)).toBe(ms);
  });

  it.each([
    "Please try again later.",
    "Try again in a few minutes.",
    "Retry after 2026-12-01T12:00:00Z",
    "retry after 30",
    "retry after -5s",
    "retry after 5 parsecs",
    "retry after 5s1",
    "retry after 1e3s",
    "entry after 5s",
    "Please wait 30 seconds",
    "retry after 1.2.3s",
    "retry after 20 seconds3",
    "",
  ])("reads no wait in %j", (text) => {
    expect(messageDelayMs(text)).toBeUndefined();
  });

  it("never throws and returns a finite non-negative whole number or undefined (property)", () => {
    const phrase = fc.constantFrom(
      "retry after ",
      "Retry in ",
      "try again in ",
      "TRY AGAIN AFTER ",
    );
    const piece = fc.oneof(
      fc.string({ maxLength: 20 }),
      phrase,
      fc.stringMatching(/^[0-9.]{1,8}(ms|s|m|h| seconds| minutes| hours)?[.,]?$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const ms = messageDelayMs(pieces.join(""));
        if (ms !== undefined) {
          expect(Number.isInteger(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("reads 1 MB messages of phrases without a duration in one pass (measured, printed)", () => {
    const hostile = [
      "retry after ".repeat(90_000),
      `retry after ${"9".repeat(1_000_000)}`,
      "try again in 1".repeat(80_000),
      `retry after 1${" ".repeat(1_000_000)}`,
      "a".repeat(1_000_000),
    ];
    for (const text of hostile) {
      const started = performance.now();
      messageDelayMs(text);
      const ms = performance.now() - started;
      console.log(`messageDelayMs on ${text.length} chars: ${ms.toFixed(1)} ms`);
    }
    expect(messageDelayMs(`${"x ".repeat(500_000)}retry after 3s`)).toBe(3_000);
  });
});
