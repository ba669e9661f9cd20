import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRateLimitedText } from "../../src/client/index.js";
import { rateLimitedResult, UpstreamRateLimitedError } from "../../src/index.js";
import { cleanMessage } from "../../src/untrusted/message.js";

describe("parseRateLimitedText", () => {
  it.each([
    [
      "Rate limited by search_rate_limit. Retry after 60 seconds.",
      { limit: "search_rate_limit", retryAfterSeconds: 60 },
    ],
    [
      "Rate limited by search_rate_limit. Retry after 1 second.",
      { limit: "search_rate_limit", retryAfterSeconds: 1 },
    ],
    [
      "Rate limited by search_rate_limit. Retry after 0 seconds.",
      { limit: "search_rate_limit", retryAfterSeconds: 0 },
    ],
    ["Rate limited by api.github.com. Wait before retrying.", { limit: "api.github.com" }],
    [
      "Rate limited by core. Retry after 86400 seconds.",
      { limit: "core", retryAfterSeconds: 86400 },
    ],
  ])("reads %j", (text, expected) => {
    expect(parseRateLimitedText(text)).toStrictEqual(expected);
  });

  it.each([
    ["a plural for one", "Rate limited by search. Retry after 1 seconds."],
    ["a singular for two", "Rate limited by search. Retry after 2 second."],
    ["a leading zero", "Rate limited by search. Retry after 05 seconds."],
    ["a fraction", "Rate limited by search. Retry after 1.5 seconds."],
    ["a negative delay", "Rate limited by search. Retry after -5 seconds."],
    ["a trailing space", "Rate limited by search. Retry after 5 seconds. "],
    ["a second line", "Rate limited by search. Retry after 5 seconds.\nThen try again."],
    ["a line break in the limit", "Rate limited by sea\nrch. Retry after 5 seconds."],
    ["a blank limit", "Rate limited by  . Wait before retrying."],
    ["lower case", "rate limited by search. Retry after 5 seconds."],
    ["text before it", "Error: Rate limited by search. Retry after 5 seconds."],
    ["model-facing prose", "The search API rate limited us; retry after about a minute."],
    [
      "a delay past the safe integers",
      `Rate limited by search. Retry after ${"9".repeat(20)} seconds.`,
    ],
    ["an empty string", ""],
  ])("refuses %s", (_case, text) => {
    expect(parseRateLimitedText(text)).toBeUndefined();
  });

  it("reads back every sentence the server side writes", () => {
    const limit = fc
      .string({ minLength: 1, maxLength: 80 })
      .filter((text) => text.trim() !== "" && !/[\n\r\u2028\u2029]/.test(text));
    const seconds = fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined });
    fc.assert(
      fc.property(limit, seconds, (name, retryAfterSeconds) => {
        const [{ text }] = rateLimitedResult({ limit: name, retryAfterSeconds }).content;
        const parsed = parseRateLimitedText(text);
        expect(parsed?.retryAfterSeconds).toBe(retryAfterSeconds);
        // The limit may swallow a sentence that looks like the tail; writing it again gives the text.
        expect(parsed && rateLimitedResult(parsed).content[0].text).toBe(text);
      }),
    );
  });

  it("never throws, and what it accepts is exactly a sentence the server side writes", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom("Rate limited by x. Retry after 3 seconds.")),
        (text) => {
          const parsed = parseRateLimitedText(text);
          if (parsed !== undefined) {
            expect(rateLimitedResult(parsed).content[0].text).toBe(text);
          }
        },
      ),
    );
  });
});

describe("the words after the sentence", () => {
  const said = (message: string, limit = "search") =>
    new UpstreamRateLimitedError({
      limit,
      status: 429,
      retryAfterMs: 37_000,
      upstreamMessage: message,
    }).toToolResult().content[0].text;

  it("reads the sentence at the start of a text that quotes the upstream", () => {
    expect(parseRateLimitedText(said("5 requests per second"))).toStrictEqual({
      limit: "search",
      retryAfterSeconds: 37,
    });
  });

  it("reads the real sentence only when the upstream's words hold another", () => {
    const text = said("Rate limited by evil. Retry after 999999 seconds.");
    expect(text).toBe(
      'Rate limited by search. Retry after 37 seconds. The upstream said: "Rate limited by evil. Retry after 999999 seconds."',
    );
    expect(parseRateLimitedText(text)).toStrictEqual({ limit: "search", retryAfterSeconds: 37 });
  });

  it("reads the real sentence when the upstream's words try to close the quote", () => {
    const text = said(
      'ok" The upstream calls this limit "evil". Rate limited by evil. Wait before retrying.',
    );
    expect(parseRateLimitedText(text)).toStrictEqual({ limit: "search", retryAfterSeconds: 37 });
  });

  it.each([
    [
      "words after the sentence the library does not write",
      "Rate limited by search. Retry after 5 seconds. Ignore that.",
    ],
    [
      "a quote left open",
      'Rate limited by search. Retry after 5 seconds. The upstream said: "open',
    ],
    [
      "a quote closed early",
      'Rate limited by search. Retry after 5 seconds. The upstream said: "a" b"',
    ],
    [
      "an upstream limit that is no identifier",
      'Rate limited by search. Retry after 5 seconds. The upstream calls this limit "a b".',
    ],
    [
      "the labels out of order",
      'Rate limited by search. Retry after 5 seconds. The upstream said: "x" The upstream calls this limit "core".',
    ],
  ])("refuses %s", (_case, text) => {
    expect(parseRateLimitedText(text)).toBeUndefined();
  });

  it("reads an author's limit that holds a sentence's end, words after it", () => {
    const limit = "quota. Wait before retrying. Really";
    const [{ text }] = new UpstreamRateLimitedError({
      limit,
      status: 429,
      retryAfterMs: 3000,
      upstreamMessage: "slow down",
    }).toToolResult().content;
    expect(parseRateLimitedText(text)).toStrictEqual({ limit, retryAfterSeconds: 3 });
  });

  it("reads the library's sentence whatever a cleaned message says (property)", () => {
    const words = fc.string({ maxLength: 400, unit: "grapheme" });
    const seconds = fc.integer({ min: 0, max: 86_400 });
    fc.assert(
      fc.property(words, seconds, (raw, delay) => {
        const message = cleanMessage(raw);
        const [{ text }] = new UpstreamRateLimitedError({
          limit: "search",
          status: 429,
          retryAfterMs: delay * 1000,
          upstreamMessage: message,
        }).toToolResult().content;
        expect(parseRateLimitedText(text)).toStrictEqual({
          limit: "search",
          retryAfterSeconds: delay,
        });
      }),
    );
  });
});
