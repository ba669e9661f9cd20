// The host a throttledFetch call asks for: the last URL's host is kept, and a kept host is the
// one the URL itself has, however URLs follow each other.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsedHost, urlHost } from "../../src/internal/url-host.js";
import { inputHost } from "../../src/wrappers/fetch-input.js";

const host = fc.constantFrom("api.example.com", "127.0.0.1", "[::1]", "EXAMPLE.org", "a..b", "");
const url = fc
  .tuple(fc.constantFrom("https://", "http://", "ftp://", ""), host, fc.constantFrom("", "/x?q=1"))
  .map(([scheme, name, rest]) => `${scheme}${name}${rest}`);

describe("inputHost", () => {
  it("gives each URL its own host, in any order (property)", () => {
    fc.assert(
      fc.property(fc.array(url, { maxLength: 30 }), (urls) => {
        for (const text of urls) expect(inputHost(text)).toBe(urlHost(text));
      }),
      { numRuns: 500 },
    );
  });

  it("reads a URL object and a Request as they are", () => {
    expect(inputHost("https://api.example.com/v1")).toBe("api.example.com");
    expect(inputHost(new URL("https://other.example.com/v1"))).toBe("other.example.com");
    expect(inputHost(new Request("https://third.example.com/"))).toBe(
      parsedHost("https://third.example.com/"),
    );
    expect(inputHost("https://api.example.com/v1")).toBe("api.example.com");
  });
});
