// The one door for text an upstream wants the model to read (the untrusted-data rules,
// the security guide). In this order: compatibility forms and character references made plain (so a
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
// go, and every Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt, as the
// regular expression engine knows it: variation selectors, Hangul fillers, U+034F, U+17B4/5,
// U+180B–180F…), and U+2800 (a Braille cell with no dots, a blank that is no space); controls
// and the line and paragraph separators become spaces. With the `u` flag, a lone surrogate is
// a code point of category Cs, so it goes too.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]+/gu;
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

/** Whitespace that collapsing would change: anything but single spaces inside the text. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;
// A query string or fragment with parameters anywhere else ("/v1/search?q=…&key=…"): a `?` or
// `#` and the run of non-space after it, when that run holds an `=` — whatever stands first
// (`?;sig=`, `?@token=`, `?filter[api_key]=`, `?=`, a redaction mark). "Why? Because" is none.
// (Each match takes its whole run, so a text of many `?` is read once, not once per `?`.)
const QUERY_IN_TEXT = /[?#]\S*/g;
const HAS_QUERY = /[?#][^\s=]*=/;
// Numeric character references and the five XML entities; JSON's `\u` escapes left in text
// (lower-case `u` only, as JSON writes them: `\U0000` is text, not an escape).
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi;
const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})/g;
/** What `plain` may change: a reference, an escape, or anything beyond ASCII (for NFKC). */
const NEEDS_PLAIN = /[&\\\u0080-\uFFFF]/;
/** What `visible` may change: anything but printable ASCII and space. */
const NEEDS_VISIBLE = /[^\x20-\x7e]/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * What no plain line holds: two spaces in a row, or a character beyond printable ASCII, or `#`,
 * `&`, `?`, `@`, `\\`. One expression, one pass (two searches cost half again as much).
 */
const NOT_PLAIN = / {2}|[^\x20-\x22\x24\x25\x27-\x3e\x41-\x5b\x5d-\x7e]/;

// Printable ASCII, single spaces inside, none at either end, and no `&` or `\` (which may
// spell other characters): nothing to clean but URLs and credentials.
const CLEAN_LINE = /^[!-%'-[\]-~](?:[!-%'-[\]-~]| (?! |$))*$/;

/**
 * An upstream's message, safe to show a model: one line of well-formed text, at most 256 code
 * points, with none of `secrets` and no URL query, fragment or userinfo. `undefined` when
 * nothing is left.
 */
export function cleanMessage(
  raw: string,
  secrets: SecretMatcher = SecretMatcher.EMPTY,
): string | undefined {
  // The common message (OpenAI's, GitHub's): printable ASCII in one line, no `&` or `\\`, no
  // userinfo, query or fragment (no `@`, `?` or `#`), a URL's path at most. Then making it plain
  // or visible, cutting URLs and collapsing spaces all leave it as it is, and so does what
  // redaction puts in (a mark, never a space): it needs redacting, once, and the length cut.
  if (raw.length <= MAX_INPUT_UNITS && isPlainLine(raw)) {
    return cutCodePoints(secrets.redact(raw), MAX_MESSAGE_CODE_POINTS);
  }
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
  const redacted = text;
  text = cutUrls(text);
  if (text.includes("?") || text.includes("#")) text = text.replace(QUERY_IN_TEXT, cutQuery);
  if (LOOSE_SPACE.test(text)) text = text.replace(/\s+/g, " ").trim();
  // Cutting a URL or collapsing spaces can join two pieces into a credential's: redact again,
  // unless nothing was cut or collapsed (then the text is the one already redacted). What
  // redaction takes out leaves nothing invisible behind, so `visible` need not run again.
  if (text !== redacted) text = secrets.redact(text);
  return text === "" ? undefined : cutCodePoints(text, MAX_MESSAGE_CODE_POINTS);
}

/**
 * Printable ASCII but `&`, `\\`, `@`, `?` and `#`, with single spaces inside and none at either
 * end: `CLEAN_LINE` without the three characters of a URL's userinfo, query and fragment.
 */
function isPlainLine(text: string): boolean {
  return text !== "" && !NOT_PLAIN.test(text) && !text.startsWith(" ") && !text.endsWith(" ");
}

/**
 * Every URL cut to its scheme, host and path: after each `//` (a scheme's, or protocol-relative)
 * the userinfo (up to the last `@` before a `/`, `?`, `#` or space) and the query and fragment
 * (from a `?` or `#` after the path to the next space) go. One pass, linear in the text: the
 * scheme before `//` is kept as it stands, so it need not be matched at all.
 */
function cutUrls(text: string): string {
  let at = text.indexOf("//");
  if (at === -1) return text;
  const length = text.length;
  let out = "";
  let last = 0;
  while (at !== -1) {
    const start = at + 2;
    let segment = start;
    while (segment < length && !endsUserinfo(text.charCodeAt(segment))) segment += 1;
    const sign = segment > start ? text.lastIndexOf("@", segment - 1) : -1;
    const host = sign >= start ? sign + 1 : start;
    let path = host;
    while (path < length && !endsPath(text.charCodeAt(path))) path += 1;
    let end = path;
    if (end < length && (text[end] === "?" || text[end] === "#")) {
      while (end < length && !isSpace(text.charCodeAt(end))) end += 1;
    }
    out += text.slice(last, start) + text.slice(host, path);
    last = end;
    at = text.indexOf("//", end);
  }
  return out + text.slice(last);
}

function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(String.fromCharCode(code));
}

/** `/`, `?`, `#` or a space: where userinfo cannot go on. */
function endsUserinfo(code: number): boolean {
  return code === 47 || code === 63 || code === 35 || isSpace(code);
}

/** `?`, `#` or a space: where a URL's path ends. */
function endsPath(code: number): boolean {
  return code === 63 || code === 35 || isSpace(code);
}

function cutQuery(run: string): string {
  return run.includes("=") ? "" : run;
}

/** Compatibility forms (full-width letters, ligatures) and character references, plainly. */
function plain(text: string): string {
  // Most messages are plain ASCII with no reference or escape: nothing to do.
  if (!NEEDS_PLAIN.test(text)) return text;
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
  if (!NEEDS_VISIBLE.test(text)) return text;
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
