// The text a request carried, as an upstream may echo it: one row per shape a door hands over.
import { describe, expect, it } from "vitest";
import { dispatchRequestText, fetchRequestText } from "../../src/untrusted/request-text.js";

describe("fetchRequestText", () => {
  it.each([
    [
      "the path as sent, decoded, and by segment",
      "https://api.github.com/repos/acme/x%20rate%20limit",
      undefined,
      ["/repos/acme/x%20rate%20limit", "/repos/acme/x rate limit", "x rate limit"],
    ],
    [
      "each query name and value, `+` decoded",
      "https://api.example.com/s?q=try+again",
      undefined,
      ["q", "try again"],
    ],
    [
      "a text body",
      "https://api.example.com/notes",
      "retry after 2 hours",
      ["retry after 2 hours"],
    ],
    [
      "a JSON body's strings",
      "https://api.example.com/i",
      '{"title":"try again in 1h","n":[{"x":"deep"}]}',
      ["try again in 1h", "deep"],
    ],
    [
      "a form body's values",
      "https://api.example.com/f",
      new URLSearchParams({ note: "retry in 5m" }),
      ["note", "retry in 5m"],
    ],
    [
      "bytes",
      "https://api.example.com/b",
      new TextEncoder().encode("retry in 9s"),
      ["retry in 9s"],
    ],
  ])("holds %s", (_what, url, body, expected) => {
    const pieces = fetchRequestText(url, body === undefined ? undefined : { method: "POST", body });
    expect(pieces).toEqual(expect.arrayContaining(expected));
  });

  it("reads a Request's URL but never its body stream", () => {
    const request = new Request("https://api.example.com/retry%20in%209s", {
      method: "POST",
      body: "hidden words",
    });
    const pieces = fetchRequestText(request, undefined);
    expect(pieces).toContain("retry in 9s");
    expect(pieces).not.toContain("hidden words");
    expect(request.bodyUsed).toBe(false);
  });

  it("keeps what it gathered before a hostile body throws", () => {
    const body = new Proxy(
      {},
      {
        get: () => {
          throw new Error("hostile");
        },
      },
    );
    expect(fetchRequestText("https://api.example.com/ok-path", { body: body as never })).toContain(
      "ok-path",
    );
  });
});

describe("dispatchRequestText", () => {
  it("holds an undici path against its origin, and a string body", () => {
    const pieces = dispatchRequestText({
      origin: "https://api.example.com",
      path: "/a%20b?c=d",
      body: "e f",
    });
    expect(pieces).toEqual(expect.arrayContaining(["a b", "c", "d", "e f"]));
  });
});
