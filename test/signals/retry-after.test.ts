import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/index.js";
import { parseHttpDate } from "../../src/signals/retry-after.js";

const now = new Date("2026-11-29T12:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    ["120", 120_000, "RFC 9110 delay-seconds"],
    ["0", 0, "RFC 9110 delay-seconds, zero"],
    ["2.0", 2_000, "decimal seconds (ky and got drop these)"],
    ["0.5", 500, "decimal seconds below one"],
    ["1.0001", 1_001, "decimals round up to whole milliseconds"],
    ["  30  ", 30_000, "surrounding whitespace"],
    ["Sun, 29 Nov 2026 12:01:00 GMT", 60_000, "IMF-fixdate"],
    ["Sunday, 29-Nov-26 12:00:30 GMT", 30_000, "obsolete RFC 850 date"],
    ["Sun Nov 29 12:00:10 2026", 10_000, "obsolete asctime date"],
    ["Sun Nov  1 12:00:10 2026", 0, "asctime with a padded day, in the past"],
    ["Sat, 28 Nov 2026 12:00:00 GMT", 0, "an HTTP-date in the past means no wait"],
    ["999999999", 999_999_999_000, "a huge delay is returned as is (the clamp is the caller's)"],
  ])("reads %j as %d ms (%s)", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([
    ["3 apples", "trailing garbage (parseInt would say 3)"],
    ["-5", "a negative number"],
    ["+5", "a signed number"],
    ["1e3", "an exponent"],
    ["2026-11-29T12:01:00Z", "an ISO 8601 string (parseFloat would say 2026)"],
    ["", "empty"],
    ["soon", "a word"],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
    ["0x10", "hex"],
    [".5", "a decimal without a leading digit"],
    ["Sun, 31 Feb 2026 12:00:00 GMT", "a day that does not exist"],
    ["Sun, 29 Nov 2026 25:00:00 GMT", "an hour that does not exist"],
    ["Sun, 29 Nov 2026 12:00:00 PST", "a zone other than GMT"],
    ["29 Nov 2026 12:00:00 GMT", "an IMF-fixdate without its weekday"],
  ])("ignores %j (%s)", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it("reads a number too long for a double (400 digits) as the longest delay, to be clamped", () => {
    const ms = parseRetryAfter("9".repeat(400), now);
    expect(ms).toBeGreaterThanOrEqual(86_400_000 * 365);
    expect(Number.isFinite(ms)).toBe(true);
  });

  it("ignores a value that is not a string", () => {
    expect(parseRetryAfter(5 as unknown as string, now)).toBeUndefined();
  });
});

describe("parseHttpDate", () => {
  it("puts a two-digit RFC 850 year more than 50 years ahead in the previous century", () => {
    expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", now)?.toISOString()).toBe(
      "1994-11-06T08:49:37.000Z",
    );
    expect(parseHttpDate("Monday, 30-Nov-26 08:49:37 GMT", now)?.toISOString()).toBe(
      "2026-11-30T08:49:37.000Z",
    );
  });
});
