// Which bodies the throttle path reads: a text or JSON media type, whatever the parameters and
// case; `isTextual` reads the type without splitting the header (issue 23).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTextual } from "../../src/wrappers/read-body.js";

/** The expression `isTextual` replaced. */
function isTextualBySplit(contentType: string | null): boolean {
  if (contentType === null) return true;
  const type = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return (
    type === "" || type.startsWith("text/") || type.endsWith("/json") || type.endsWith("+json")
  );
}

describe("isTextual", () => {
  it("takes text and JSON types, with parameters and in any case", () => {
    for (const type of [
      null,
      "",
      "application/json",
      "Application/JSON; charset=utf-8",
      "text/plain",
      " text/html ;x",
      "application/problem+json",
    ])
      expect(isTextual(type), String(type)).toBe(true);
    for (const type of ["application/octet-stream", "image/png", "application/jsonx", "json"])
      expect(isTextual(type), type).toBe(false);
  });

  it("answers as the split it replaced (property)", () => {
    const piece = fc.constantFrom(
      "text/",
      "application/",
      "json",
      "+json",
      "/json",
      ";",
      " ",
      "\t",
      "charset=utf-8",
      "A",
      "x",
      "",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 8 }).map((parts) => parts.join("")),
          fc.string(),
        ),
        (type) => {
          expect(isTextual(type)).toBe(isTextualBySplit(type));
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
