// A vendor SDK can hold a huge error body in memory (here 32 MiB). Detection looks at no more
// of it than the throttle path would read from the wire (64 KiB): a larger JSON body is not
// parsed, and a text body's message is cut from a bounded prefix.

import { describe, expect, it } from "vitest";
import { toUpstreamRateLimitedError } from "../../src/index.js";

const MiB = 1024 * 1024;

describe("huge bodies on the vendor-SDK path", () => {
  it("a 32 MiB JSON body is not parsed: its message is not used, the headers still are", () => {
    const body = JSON.stringify({ message: "from a huge body", padding: "x".repeat(32 * MiB) });
    const throttle = toUpstreamRateLimitedError({
      status: 429,
      headers: { "retry-after": "3" },
      response: { data: body },
    });
    expect(throttle).toMatchObject({ retryAfterSeconds: 3 });
    expect(throttle?.upstreamMessage).toBeUndefined();
  });

  it("a 32 MiB text body gives a message of at most 256 code points", () => {
    const body = `Slow down. ${"word ".repeat((32 * MiB) / 5)}`;
    const throttle = toUpstreamRateLimitedError({
      status: 429,
      headers: {},
      response: { data: body },
    });
    expect(throttle?.upstreamMessage?.startsWith("Slow down. word word")).toBe(true);
    expect([...(throttle?.upstreamMessage ?? "")].length).toBeLessThanOrEqual(256);
  });

  it("an error message with 32 MiB of embedded JSON is not parsed", () => {
    const message = `Error POSTing to endpoint: ${JSON.stringify({ error: { code: -32023, message: "x".repeat(32 * MiB) } })}`;
    expect(toUpstreamRateLimitedError({ message, code: 400 })).toBeUndefined();
  });
});
