// The one door for text an upstream wants the model to read (design §8). In this order:
// invisible and control characters out, the request's credentials redacted (before any cut),
// URLs cut to scheme, host and path, whitespace collapsed, then a cut to 256 code points.

import { SecretMatcher } from "./secrets.js";

/** Longest message, in code points. */
export const MAX_MESSAGE_CODE_POINTS = 256;

// Work on a bounded prefix: a 32 MiB error body must not hold the event loop. Large enough to
// leave 256 code points after any cleaning a real message needs.
const MAX_INPUT_UNITS = 8192;

// Format (zero-width, bidi controls, tag characters), private-use and surrogate code points
// go; controls and the line and paragraph separators become spaces. With the `u` flag, a lone
// surrogate is a code point of category Cs, so it goes too.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}]+/gu;
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

// scheme://, or a protocol-relative //, then userinfo, host and path, then query and fragment.
const URL_IN_TEXT = /((?:\b[a-z][a-z0-9+.-]*:)?\/\/)(?:[^\s/?#]*@)?([^\s?#]*)(?:[?#]\S*)?/gi;

// Printable ASCII, single spaces inside, none at either end, no "//": nothing to clean.
const CLEAN_LINE = /^[!-~](?:[!-~]| (?! ))*$/;

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
    !secrets.touches(raw)
  ) {
    return raw;
  }
  let text = raw.length > MAX_INPUT_UNITS ? raw.slice(0, MAX_INPUT_UNITS) : raw;
  text = visible(text);
  text = secrets.redact(text);
  text = text.replace(URL_IN_TEXT, "$1$2");
  text = text.replace(/\s+/g, " ").trim();
  // Cutting a URL or collapsing spaces can join two pieces into a credential's: redact again.
  text = visible(secrets.redact(text));
  return text === "" ? undefined : cutCodePoints(text, MAX_MESSAGE_CODE_POINTS);
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
