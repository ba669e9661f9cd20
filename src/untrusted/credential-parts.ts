// The rules behind a request's credentials: which header and parameter names carry one, which
// URLs certainly hold none, which path segments are tokens, and the forms a value is looked for
// in (encoded, decoded, each part, a Basic password), read from whatever shape headers come in.

import { isObject, readProperty as read } from "../internal/is-object.js";
import { PIECE, type SecretMatcher } from "./secrets.js";
import { decodeBase64, perRequest, SECRET_LINE } from "./stable-identity.js";

// The names the security guide lists: "auth" covers authorization and proxy-authorization; "key" x-api-key,
// api-key, x-goog-api-key, ocp-apim-subscription-key, x-rapidapi-key; "token" private-token.
// And names seen carrying keys in the wild, as whole words where a substring would catch
// ordinary headers (accept-encoding, access-control-…): "pass…" (x-pass, passwd), "pwd", "jwt",
// "appid" (OpenWeatherMap), "code" (OAuth), "access"; and vendors' key headers whose name says
// none of this: Honeycomb's `x-honeycomb-team`, JFrog's `x-jfrog-art-api`, `x-bearer`.
const SECRET_NAME =
  /key|token|secret|auth|session|sig|password|credential|\bpass|pwd|jwt|bearer|honeycomb-team|jfrog-art-api|\bapp_?id\b|\bcode\b|\baccess\b(?!-control)/i;

const ENCODED = /[%+]/;
const COOKIE = /cookie/i;

/** Names decided lately: a server sends the same few header names on every request. */
const NAME_CACHE_SIZE = 1024;
const decided = new Map<string, boolean>();

/** Whether a header or query parameter of this name carries a credential. */
export function isCredentialName(name: string): boolean {
  let verdict = decided.get(name);
  if (verdict === undefined) {
    verdict = SECRET_NAME.test(name) || name.toLowerCase() === "cookie";
    if (decided.size >= NAME_CACHE_SIZE) decided.clear();
    decided.set(name, verdict);
  }
  return verdict;
}

/**
 * Whether a URL string certainly holds no credential, decided without parsing it: no `@` (no
 * userinfo), a query with no name that could be a credential, and no run of 20 or more characters
 * between slashes that could be a token segment. It over-approximates each rule of `url()` on the
 * raw text (the parser only removes characters, decodes, and splits on more separators), so
 * `false` only means "parse it and look".
 */
export function plainUrl(text: string): boolean {
  // A server calls the same few URLs again and again: the last plain one is known.
  if (text === lastPlainUrl) return true;
  if (!scanPlainUrl(text)) return false;
  lastPlainUrl = text;
  return true;
}

let lastPlainUrl: string | undefined;

function scanPlainUrl(text: string): boolean {
  if (text.includes("@")) return false;
  const query = text.indexOf("?");
  if (query !== -1) {
    const search = text.slice(query + 1);
    // Decoding could turn an innocent-looking name into a credential name: look the long way.
    if (ENCODED.test(search) || SECRET_NAME.test(search) || COOKIE.test(search)) return false;
  }
  let run = 0;
  let upper = false;
  let lower = false;
  let digit = false;
  let other = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x2f) {
      run = 0;
      upper = lower = digit = other = false;
      continue;
    }
    // Whitespace and controls the parser strips would join runs; anything encoded may decode
    // to letters or digits.
    if (code <= 0x20 || code === 0x25) return false;
    run += 1;
    if (code >= 0x41 && code <= 0x5a) upper = true;
    else if (code >= 0x61 && code <= 0x7a) lower = true;
    else if (code >= 0x30 && code <= 0x39) digit = true;
    else if (code > 0x7f) other = true;
    if (run >= 20 && ((upper && lower && digit) || other)) return false;
  }
  return true;
}

/**
 * A path segment that is a secret rather than a resource name: 20 or more characters mixing
 * upper- and lower-case letters and digits. Telegram (`/bot<id>:<token>/`), Slack and Discord
 * webhook URLs carry their credential this way; hex ids, UUIDs and words do not look like it.
 */
export function isTokenSegment(segment: string): boolean {
  return (
    segment.length >= 20 && /[a-z]/.test(segment) && /[A-Z]/.test(segment) && /\d/.test(segment)
  );
}

/** A value, and each of its parts: a list or parameters may be echoed piece by piece. */
export function secretParts(values: Set<string>, text: string): void {
  secret(values, text.trim());
  for (const part of text.split(/[\s,;=]+/)) secret(values, part.replace(/^"|"$/g, ""));
}

/** Basic credentials, decoded: the password (and user:password) as the upstream may echo them. */
export function basic(values: Set<string>, encoded: string): void {
  const decoded = decodeBase64(encoded);
  if (decoded === undefined) return;
  secret(values, decoded);
  secret(values, decoded.slice(decoded.indexOf(":") + 1));
}

export function secret(values: Set<string>, value: string): void {
  if (value.length < PIECE) return;
  values.add(value);
  // As it may travel in a URL or a form body, and as it reads once decoded.
  values.add(encodeURIComponent(value));
  values.add(safeDecode(value));
}

/** An object literal (or one made without a prototype): its own keys are its headers. */
export function isPlainRecord(raw: unknown): raw is Record<string, unknown> {
  if (!isObject(raw)) return false;
  const prototype = Object.getPrototypeOf(raw);
  return prototype === Object.prototype || prototype === null;
}

/** Name–value pairs of headers (or query parameters) in any shape; nothing for anything else. */
export function* headerEntries(raw: unknown): Generator<[unknown, unknown]> {
  if (!isObject(raw)) return;
  if (Array.isArray(raw)) {
    const items: unknown[] = raw;
    // undici: [[name, value], …] or a flat [name, value, name, value, …].
    if (items.every(Array.isArray))
      for (const pair of items as unknown[][]) yield [pair[0], pair[1]];
    else for (let i = 0; i + 1 < items.length; i += 2) yield [items[i], items[i + 1]];
    return;
  }
  const forEach = read(raw, "forEach");
  if (typeof forEach === "function" && !(raw instanceof Map)) {
    // Headers (any implementation), URLSearchParams: forEach(value, name).
    const pairs: [unknown, unknown][] = [];
    forEach.call(raw, (value: unknown, name: unknown) => pairs.push([name, value]));
    yield* pairs;
    return;
  }
  if (raw instanceof Map) {
    yield* raw.entries();
    return;
  }
  // A plain object (node:http, axios' AxiosHeaders keeps its headers as own properties).
  for (const name of Object.keys(raw)) yield [name, read(raw, name)];
}

export function parseUrl(raw: unknown, base: unknown): URL | undefined {
  if (raw instanceof URL) return raw;
  if (typeof raw !== "string" || raw === "") return undefined;
  try {
    return typeof base === "string" || base instanceof URL ? new URL(raw, base) : new URL(raw);
  } catch {
    return undefined;
  }
}

export function primitive(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" || typeof value === "bigint"
    ? String(value)
    : undefined;
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** How a gathered value is turned into the values redaction looks for. */
export enum Form {
  /** The value itself. */
  Value = 0,
  /** The value and each of its parts (a list, parameters). */
  Parts = 1,
  /** The value and each of its parts, and its Basic decoding. */
  Basic = 2,
  /** A cookie header: each cookie's value. */
  Cookie = 3,
}

/** Every value redaction looks for, expanded from the raw ones: [form, text, form, text, …]. */
export function expandValues(raw: readonly (Form | string)[]): Set<string> {
  const values = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const form = raw[i] as Form;
    const text = raw[i + 1] as string;
    if (form === Form.Value) secret(values, text);
    else if (form === Form.Cookie) {
      // "a=1; sid=abc": the values are secrets, the cookie names are not.
      for (const pair of text.split(";")) secret(values, pair.slice(pair.indexOf("=") + 1).trim());
    } else {
      const scheme = /^([A-Za-z][\w-]*)\s+(\S.*)$/.exec(text.trim());
      if (form === Form.Basic && scheme?.[2] !== undefined) {
        // "Bearer abc", "token abc", "Basic dXNlcjpwYXNz": the scheme is no secret.
        secretParts(values, scheme[2]);
        if (scheme[1]?.toLowerCase() === "basic") basic(values, scheme[2].trim());
      } else secretParts(values, text);
    }
  }
  return values;
}

/** Most matchers kept: one per set of credentials, so a busy caller's is built once. */
const MATCHER_CACHE_SIZE = 128;
const matchers = new Map<string, SecretMatcher>();
/** The key used last: already the most recent, it needs no move (a delete and a set per call). */
let newest: string | undefined;

/** The matcher for these gathered values, from the cache or built once and kept. */
export function cachedMatcher(key: string, build: () => SecretMatcher): SecretMatcher {
  const cached = matchers.get(key);
  if (cached !== undefined && key === newest) return cached;
  newest = key;
  if (cached !== undefined) {
    // Most recently used last: the first entry is the one to drop when full.
    matchers.delete(key);
    matchers.set(key, cached);
    return cached;
  }
  const matcher = build();
  if (matchers.size >= MATCHER_CACHE_SIZE) {
    const oldest = matchers.keys().next().value;
    if (oldest !== undefined) matchers.delete(oldest);
  }
  matchers.set(key, matcher);
  return matcher;
}

/** What a credential header's name says: its identity line's head, how to expand it. */
export interface CredentialHeader {
  /** `undefined` for a value new on every request (redacted, no identity line). */
  readonly prefix: string | undefined;
  readonly form: Form;
}

const credentialHeaders = new Map<string, CredentialHeader>();

/**
 * The same for every request with this header name, made once: a name's lowercase form and its
 * line's head are then the same strings each time, hashed once, not joined anew per call.
 */
export function credentialHeader(name: string): CredentialHeader {
  let known = credentialHeaders.get(name);
  if (known === undefined) {
    const lower = name.toLowerCase();
    known = {
      // One secret is one caller whichever header family carries it (`x-api-key`, `Bearer`):
      // the line names the value only. A cookie header is many values, named as a whole.
      prefix: perRequest(lower) ? undefined : lower === "cookie" ? "header:cookie=" : SECRET_LINE,
      form:
        lower === "cookie"
          ? Form.Cookie
          : lower.endsWith("authorization")
            ? Form.Basic
            : Form.Parts,
    };
    if (credentialHeaders.size >= 1024) credentialHeaders.clear();
    credentialHeaders.set(name, known);
  }
  return known;
}

/** Runs `gather`; a hostile object that throws on the way only ends that part of the search. */
export function attempt(gather: () => void): void {
  try {
    gather();
  } catch {
    // Whatever was gathered before the throw is kept.
  }
}
