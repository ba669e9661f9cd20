// The one door for text an upstream wants the model to read (the untrusted-data rules,
// docs/security.md). In this order: compatibility forms and character references made plain (so a
// full-width or `&#115;`-spelled key is still seen), invisible and control characters out, the
// request's credentials (and anything shaped like one) redacted before any cut, URLs cut to scheme,
// host and path, query strings cut wherever they stand, whitespace collapsed, then a cut to 256
// code points.

import { SecretMatcher } from "./secrets.js";

/** Longest message, in code points. */
const MAX_MESSAGE_CODE_POINTS = 256;

// Work on a bounded prefix: a 32 MiB error body must not hold the event loop. Large enough to
// leave 256 code points after any cleaning a real message needs.
const MAX_INPUT_UNITS = 8192;

// Format (zero-width, bidi controls, tag characters), private-use and surrogate code points
// go; controls and the line and paragraph separators become spaces. With the `u` flag, a lone
// surrogate is a code point of category Cs, so it goes too.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}]+/gu;
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

// scheme://, or a protocol-relative //, then userinfo, host and path, then query and fragment.
// The scheme is bounded: unbounded, a long run of scheme characters made the match quadratic.
const URL_IN_TEXT = /((?:\b[a-z][a-z0-9+.-]{0,31}:)?\/\/)(?:[^\s/?#]*@)?([^\s?#]*)(?:[?#]\S*)?/gi;
// A query string or fragment with parameters anywhere else ("/v1/search?q=…&key=…").
const QUERY_IN_TEXT = /[?#][\w.~%+-]+=\S*/g;
const HAS_QUERY = /[?#][\w.~%+-]+=/;
// Numeric character references and the five XML entities; JSON's `\u` escapes left in text.
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi;
const UNICODE_ESCAPE = /\\u([0-9a-f]{4})/gi;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

// Printable ASCII, single spaces inside, none at either end, and no `&` or `\` (which may
// spell other characters): nothing to clean but URLs and credentials.
const CLEAN_LINE = /^[!-%'-[\]-~](?:[!-%'-[\]-~]| (?! ))*$/;

/**
 * An upstream's message, safe to show a model: one line of well-formed text, at most 256 code
 * points, with none of `secrets` and no URL query, fragment or userinfo. `undefined` when
 * nothing is left.
 */
export function cleanMessage(
  raw: string,
  secrets: SecretMatcher = SecretMatcher.EMPTY,
): string | undefined {
  if (
    raw.length <= MAX_MESSAGE_CODE_POINTS &&
    CLEAN_LINE.test(raw) &&
    !raw.includes("//") &&
    !HAS_QUERY.test(raw) &&
    !secrets.touches(raw)
  ) {
    return raw;
  }
  let text = raw.length > MAX_INPUT_UNITS ? raw.slice(0, MAX_INPUT_UNITS) : raw;
  text = plain(text);
  text = visible(text);
  text = secrets.redact(text);
  text = text.replace(URL_IN_TEXT, "$1$2").replace(QUERY_IN_TEXT, "");
  text = text.replace(/\s+/g, " ").trim();
  // Cutting a URL or collapsing spaces can join two pieces into a credential's: redact again.
  text = visible(secrets.redact(text));
  return text === "" ? undefined : cutCodePoints(text, MAX_MESSAGE_CODE_POINTS);
}

/** Compatibility forms (full-width letters, ligatures) and character references, plainly. */
function plain(text: string): string {
  const decoded = text.replace(REFERENCE, (reference, decimal, hex, name) => {
    if (name !== undefined) return ENTITIES[String(name).toLowerCase()] ?? reference;
    const code = Number.parseInt(decimal ?? hex, decimal === undefined ? 16 : 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : reference;
  });
  const unescaped = decoded.replace(UNICODE_ESCAPE, (_, hex) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return unescaped.normalize("NFKC");
}

function visible(text: string): string {
  return text.replace(INVISIBLE, "").replace(BREAKING, " ");
}

/** At most `max` code points, never splitting a surrogate pair; "…" marks a cut. */
function cutCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max - 1) {
      // One code point left: the rest fits only if it is exactly that one.
      return end + char.length === text.length ? text : `${text.slice(0, end).trimEnd()}…`;
    }
    count += 1;
    end += char.length;
  }
  return text;
}
