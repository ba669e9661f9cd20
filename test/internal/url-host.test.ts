import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostOf } from "../../src/errors/recognize.js";
import { plainHost } from "../../src/internal/url-host.js";
import { plainHostByRegex } from "./oracles/url-host.js";

// Pieces that make the WHATWG parser rewrite a host, mixed with ordinary ones.
const piece = fc.constantFrom(
  "http://",
  "https://",
  "HTTP://",
  "ftp://",
  "//",
  "a",
  "Z",
  "0",
  "9",
  "1",
  "127",
  "255",
  "256",
  "0x7f",
  "00",
  "-",
  ".",
  "..",
  "xn--",
  "xn--nxasmq6b",
  "@",
  ":",
  ":80",
  ":65535",
  ":65536",
  ":99999",
  "/",
  "\\",
  "?",
  "#",
  "%41",
  "%2e",
  "\t",
  "\n",
  " ",
  "é",
  "ß",
  "[::1]",
  "api",
  "example",
  "com",
  "github",
);

describe("plainHost: the host of a URL string without parsing it", () => {
  it("gives the parser's hostname for the usual shapes", () => {
    expect(plainHost("https://api.github.com/graphql")).toBe("api.github.com");
    expect(plainHost("http://127.0.0.1:8080/throttled?q=1")).toBe("127.0.0.1");
    expect(plainHost("https://api.openai.com")).toBe("api.openai.com");
    expect(plainHost("https://x.io?q=1")).toBe("x.io");
  });

  it("declines what the parser would rewrite or refuse", () => {
    for (const text of [
      "https://API.github.com/",
      "http://127.1/",
      "http://0x7f.0.0.1/",
      "http://010.0.0.1/",
      "https://xn--nxasmq6b.com/",
      "https://user:pass@host.com/",
      "https://host.com\\path",
      "https://host.com:99999/",
      "https://host.com./",
      "https://a..b/",
      " https://host.com/",
      "wss://host.com/",
      "https://1.2.3/",
    ]) {
      expect(plainHost(text), text).toBeNull();
    }
  });

  it("never disagrees with the parser (property)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        const fast = plainHost(text);
        if (fast !== null) expect(fast).toBe(hostOf(text));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom("http://", "https://"),
        fc.domain(),
        fc.option(fc.integer({ min: 0, max: 70_000 })),
        fc.webPath(),
        (scheme, domain, port, path) => {
          const text = `${scheme}${domain}${port === null ? "" : `:${port}`}${path}`;
          const fast = plainHost(text);
          if (fast !== null) expect(fast).toBe(hostOf(text));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("answers as the regular expressions it replaced, null included (property)", () => {
    const agree = (text: string): void => {
      expect(plainHost(text), text).toBe(plainHostByRegex(text));
    };
    for (const text of [
      "https://",
      "http://a",
      "http://1.2.3.4",
      "http://1.2.3.4.5/",
      "http://255.255.255.255:0/",
      "http://256.1.1.1/",
      "http://01.1.1.1/",
      "http://1.2.3.a/",
      "http://a.1/",
      "http://a-.b/",
      "http://-a.b/",
      "http://a.b:/",
      "http://a.b:123456/",
      "http://a.b:65535/",
      "http://a.b:65536/",
      "http://a.b:065535/",
      `https://${"a".repeat(253)}/`,
      `https://${"a".repeat(254)}/`,
      "https://a.b#x",
      "https://a.b?x",
      "https://a.b;x",
    ])
      agree(text);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => agree(pieces.join(""))),
      { numRuns: 20_000 },
    );
    const octet = fc.oneof(
      fc.integer({ min: 0, max: 300 }).map(String),
      fc.constantFrom("00", "01", "007", ""),
    );
    fc.assert(
      fc.property(
        fc.constantFrom("http://", "https://"),
        fc.oneof(
          fc.domain(),
          fc.array(octet, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(".")),
        ),
        fc.option(
          fc.oneof(
            fc.integer({ min: 0, max: 70_000 }).map(String),
            fc.constantFrom("", "0080", "1a"),
          ),
        ),
        fc.constantFrom("", "/", "/x?y#z", "?q", "#f", "\\", " ", "@u"),
        (scheme, host, port, rest) =>
          agree(`${scheme}${host}${port === null ? "" : `:${port}`}${rest}`),
      ),
      { numRuns: 20_000 },
    );
  });
});
