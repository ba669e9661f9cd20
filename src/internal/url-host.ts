// The host of a URL string without parsing it, for the usual shapes (`https://api.x.com/…`,
// `http://127.0.0.1:8080/…`): the wrappers name a limit or a scope by it on every throttle and
// every cooldown lookup. Anything the WHATWG parser would rewrite (upper case, IDNA, numeric
// IPv4 forms, userinfo, escapes, unusual schemes) gets `null`: parse it.

const DOT = 0x2e;
const HYPHEN = 0x2d;
const COLON = 0x3a;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;

/**
 * The hostname `new URL(text).hostname` gives, when it is certain without parsing; else `null`.
 * A name is certain when its labels are non-empty lower-case letters, digits and inner hyphens,
 * none is punycode, and the last starts with a letter (a numeric last label makes an IPv4 form);
 * an address is certain in dotted decimal without leading zeros. One scan of the text: it runs
 * on every throttle and every lookup of a host-scoped cooldown.
 */
export function plainHost(text: string): string | null {
  const from = text.startsWith("https://") ? 8 : text.startsWith("http://") ? 7 : -1;
  if (from === -1) return null;
  let i = from;
  let labelStart = from;
  // Whether every label so far is a decimal octet (IPv4), and how many there were.
  let numeric = true;
  let labels = 0;
  for (; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const letter = code >= LOWER_A && code <= LOWER_Z;
    const digit = code >= ZERO && code <= NINE;
    if (letter || digit || code === HYPHEN) {
      if (!digit) numeric = false;
      continue;
    }
    if (code !== DOT) break;
    if (!label(text, labelStart, i)) return null;
    numeric &&= octet(text, labelStart, i);
    labels += 1;
    labelStart = i + 1;
  }
  const end = i;
  if (end - from > 253 || !label(text, labelStart, end)) return null;
  const ipv4 = numeric && labels === 3 && octet(text, labelStart, end);
  // A numeric last label, not a dotted-decimal address: an IPv4 form the parser rewrites.
  if (!ipv4 && !(text.charCodeAt(labelStart) >= LOWER_A && text.charCodeAt(labelStart) <= LOWER_Z))
    return null;
  if (i < text.length && text.charCodeAt(i) === COLON) {
    i += 1;
    const portStart = i;
    while (i < text.length && text.charCodeAt(i) >= ZERO && text.charCodeAt(i) <= NINE) i += 1;
    const digits = i - portStart;
    if (digits < 1 || digits > 5 || Number(text.slice(portStart, i)) > 65535) return null;
  }
  if (i < text.length) {
    const next = text[i];
    if (next !== "/" && next !== "?" && next !== "#") return null;
  }
  return text.slice(from, end);
}

/** A label the parser keeps as it is: non-empty, no hyphen at either end, no punycode. */
function label(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  if (text.charCodeAt(start) === HYPHEN || text.charCodeAt(end - 1) === HYPHEN) return false;
  return !text.startsWith("xn--", start);
}

/** A decimal octet as dotted decimal writes it: 0–255, no leading zero. */
function octet(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 1 || length > 3) return false;
  for (let k = start; k < end; k += 1) {
    const code = text.charCodeAt(k);
    if (code < ZERO || code > NINE) return false;
  }
  if (length > 1 && text.charCodeAt(start) === ZERO) return false;
  return Number(text.slice(start, end)) <= 255;
}

/** `parsedHost(url)`, without a parse for the usual shapes. */
export function urlHost(url: string | URL | undefined): string | undefined {
  if (typeof url === "string") {
    const plain = plainHost(url);
    if (plain !== null) return plain;
  }
  return parsedHost(url);
}

/**
 * The host name of a URL, parsed: only the name leaves the URL (never its path, query string or
 * credentials), and only one made of the characters host names use (WHATWG URLs let more through).
 */
export function parsedHost(url: string | URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const host = (url instanceof URL ? url : new URL(url)).hostname;
    return /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])$/.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}
