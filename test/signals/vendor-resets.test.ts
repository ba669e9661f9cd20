import { describe, expect, it } from "vitest";
import { parseGoDuration, parseRfc3339 } from "../../src/signals/vendor-resets.js";

describe("parseGoDuration (OpenAI's x-ratelimit-reset-*)", () => {
  it.each([
    ["6m0s", 360_000],
    ["12ms", 12],
    ["1.5s", 1_500],
    ["1h2m3s", 3_723_000],
    ["0s", 0],
    ["250us", 1],
    ["20ns", 1],
  ])("reads %j as %d ms", (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(["", "6", "6 m", "-1s", "1e3s", "1d", "soon", "6m0"])("ignores %j", (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe("parseRfc3339 (Anthropic's anthropic-ratelimit-*-reset)", () => {
  it.each([
    ["2026-11-29T12:00:30Z", Date.UTC(2026, 10, 29, 12, 0, 30)],
    ["2026-11-29T12:00:30.250Z", Date.UTC(2026, 10, 29, 12, 0, 30, 250)],
    ["2026-11-29T13:00:30+01:00", Date.UTC(2026, 10, 29, 12, 0, 30)],
  ])("reads %j", (text, ms) => {
    expect(parseRfc3339(text)).toBe(ms);
  });

  it.each([
    "2026-11-29",
    "2026-11-29 12:00:30",
    "Sun, 29 Nov 2026 12:00:30 GMT",
    "1795953630",
    "2026-13-45T99:00:00Z",
  ])("ignores %j", (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });
});
