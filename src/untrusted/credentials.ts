// A request's credentials (the untrusted-data rules, the security guide), in one definition that
// serves both redaction (cut them from what an upstream says) and the cooldown partition (which
// caller a request belongs to): `Authorization`, `Proxy-Authorization`, `Cookie`, every header and
// query parameter whose name says it holds a secret, URL userinfo, and URL path segments shaped
// like a token.

import { isObject, readProperty as read } from "../internal/is-object.js";
import { PIECE, SecretMatcher } from "./secrets.js";

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
function isCredentialName(name: string): boolean {
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
function plainUrl(text: string): boolean {
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
function isTokenSegment(segment: string): boolean {
  return (
    segment.length >= 20 && /[a-z]/.test(segment) && /[A-Z]/.test(segment) && /\d/.test(segment)
  );
}

/** How a gathered value is turned into the values redaction looks for. */
enum Form {
  /** The value itself. */
  Value = 0,
  /** The value and each of its parts (a list, parameters). */
  Parts = 1,
  /** The value and each of its parts, and its Basic decoding. */
  Basic = 2,
  /** A cookie header: each cookie's value. */
  Cookie = 3,
}

/** Most matchers kept: one per set of credentials, so a busy caller's is built once. */
const MATCHER_CACHE_SIZE = 128;
const matchers = new Map<string, SecretMatcher>();

/** The matcher for these gathered values, from the cache or built once and kept. */
function cachedMatcher(key: string, build: () => SecretMatcher): SecretMatcher {
  const cached = matchers.get(key);
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

/**
 * The credentials found on one request, gathered from whatever shape it came in. Gathering is
 * cheap (the identity lines, and the raw values): the forms an upstream may echo a value in
 * are made only when a matcher is asked for, and a matcher is built once per set of values.
 */
export class Credentials {
  /** `kind:name=value` lines: the input of the partition hash (made with the second line). */
  #lines: Set<string> | undefined;
  /** The first line: most requests carry one credential. */
  #line: string | undefined;
  /** Raw values for redaction, each with how to expand it: [form, text, form, text, …]. */
  readonly #raw: (Form | string)[] = [];
  #matcher: SecretMatcher | undefined;

  get isEmpty(): boolean {
    return this.#line === undefined;
  }

  /** Sorted, deduplicated `kind:name=value` lines. */
  lines(): string[] {
    if (this.#lines !== undefined) return [...this.#lines].sort();
    return this.#line === undefined ? [] : [this.#line];
  }

  /** The lines joined by newlines: the input of the partition hash. */
  identity(): string {
    if (this.#lines === undefined) return this.#line ?? "";
    return this.lines().join("\n");
  }

  #addLine(line: string): void {
    if (this.#line === undefined) this.#line = line;
    else if (this.#lines !== undefined) this.#lines.add(line);
    else if (line !== this.#line) this.#lines = new Set([this.#line, line]);
  }

  /** A matcher for every form of every value, for redaction; built once per set of values. */
  matcher(): SecretMatcher {
    if (this.#matcher !== undefined) return this.#matcher;
    if (this.#raw.length === 0) {
      this.#matcher = SecretMatcher.EMPTY;
      return this.#matcher;
    }
    this.#matcher = cachedMatcher(this.#raw.join("\u0000"), () => {
      const values = this.#values();
      return values.size === 0 ? SecretMatcher.EMPTY : new SecretMatcher(values);
    });
    return this.#matcher;
  }

  /** Values to keep out of what an upstream says, named by the caller: no identity lines. */
  known(values: readonly string[]): void {
    for (const value of values) if (value !== "") this.#raw.push(Form.Value, value);
  }

  /** A header of the request; ignored unless its name says it is a credential. */
  header(name: unknown, value: unknown): void {
    if (typeof name !== "string" || !isCredentialName(name)) return;
    const text = Array.isArray(value) ? value.map(String).join(", ") : primitive(value);
    if (text === undefined || text === "") return;
    const lower = name.toLowerCase();
    this.#addLine(`header:${lower}=${text}`);
    if (lower === "cookie") this.#raw.push(Form.Cookie, text);
    else if (lower.endsWith("authorization")) this.#raw.push(Form.Basic, text);
    else this.#raw.push(Form.Parts, text);
  }

  /** Every header of a `Headers`, a plain object, a `Map`, or undici's array forms. */
  headers(raw: unknown): void {
    if (isPlainRecord(raw)) {
      // The usual shape (`{ authorization: "Bearer …" }`): no iterator, no pairs built.
      for (const name of Object.keys(raw)) {
        if (isCredentialName(name)) this.header(name, read(raw, name));
      }
      return;
    }
    for (const [name, value] of headerEntries(raw)) this.header(name, value);
  }

  /** Userinfo, credential query parameters and token-shaped path segments of a URL. */
  url(raw: unknown, base?: unknown): void {
    // The common case, a URL with nothing to gather, costs a scan of its text and no parse.
    if (
      typeof raw === "string" &&
      plainUrl(raw) &&
      (base === undefined || (typeof base === "string" && plainUrl(base)))
    )
      return;
    const url = parseUrl(raw, base);
    if (url === undefined) return;
    if (url.username !== "") this.#add("userinfo", "username", safeDecode(url.username));
    if (url.password !== "") this.#add("userinfo", "password", safeDecode(url.password));
    if (url.search !== "") {
      url.searchParams.forEach((value, name) => {
        if (isCredentialName(name)) this.#add("query", name.toLowerCase(), value);
      });
    }
    const path = url.pathname;
    // A token segment is 20+ characters: a shorter path holds none.
    if (path.length < 21) return;
    for (const segment of path.split("/")) {
      if (segment.length < 20) continue;
      const decoded = safeDecode(segment);
      if (isTokenSegment(decoded)) this.#add("path", "", decoded);
    }
  }

  /** Query parameters given apart from the URL (axios `params`, got `searchParams`). */
  query(raw: unknown): void {
    for (const [name, value] of headerEntries(raw)) {
      const text = primitive(value);
      if (typeof name === "string" && isCredentialName(name) && text !== undefined && text !== "")
        this.#add("query", name.toLowerCase(), text);
    }
  }

  /** A credential known by itself (an MCP request's bearer token). */
  token(kind: string, value: unknown): void {
    if (typeof value === "string" && value !== "") this.#add(kind, "", value);
  }

  #add(kind: string, name: string, value: string): void {
    this.#addLine(`${kind}:${name}=${value}`);
    this.#raw.push(Form.Value, value);
  }

  /** Every value redaction looks for, expanded from the raw ones. */
  #values(): Set<string> {
    const values = new Set<string>();
    for (let i = 0; i + 1 < this.#raw.length; i += 2) {
      const form = this.#raw[i] as Form;
      const text = this.#raw[i + 1] as string;
      if (form === Form.Value) secret(values, text);
      else if (form === Form.Cookie) {
        // "a=1; sid=abc": the values are secrets, the cookie names are not.
        for (const pair of text.split(";"))
          secret(values, pair.slice(pair.indexOf("=") + 1).trim());
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
}

/** A value, and each of its parts: a list or parameters may be echoed piece by piece. */
function secretParts(values: Set<string>, text: string): void {
  secret(values, text.trim());
  for (const part of text.split(/[\s,;=]+/)) secret(values, part.replace(/^"|"$/g, ""));
}

/** Basic credentials, decoded: the password (and user:password) as the upstream may echo them. */
function basic(values: Set<string>, encoded: string): void {
  const decoded = decodeBase64(encoded);
  if (decoded === undefined) return;
  secret(values, decoded);
  secret(values, decoded.slice(decoded.indexOf(":") + 1));
}

function secret(values: Set<string>, value: string): void {
  if (value.length < PIECE) return;
  values.add(value);
  // As it may travel in a URL or a form body, and as it reads once decoded.
  values.add(encodeURIComponent(value));
  values.add(safeDecode(value));
}

/** What `fetch` takes as its first argument: a URL string, a `URL` or a `Request`. */
export type FetchInput = Parameters<typeof fetch>[0];

/** The credentials of a `fetch(input, init)` call. */
export function fetchCredentials(
  input: FetchInput,
  init: RequestInit | undefined,
  known: readonly string[] = [],
): Credentials {
  const credentials = new Credentials();
  if (known.length > 0) credentials.known(known);
  // A hostile object that throws on the way only ends that part of the search.
  try {
    if (typeof input === "string" || input instanceof URL) credentials.url(input);
    else if (isObject(input)) {
      credentials.url(input.url);
      credentials.headers(input.headers);
    }
  } catch {}
  try {
    if (init !== undefined && init !== null) credentials.headers(init.headers);
  } catch {}
  return credentials;
}

/** The credentials of an undici dispatch: `origin` + `path`, headers in any of undici's forms. */
export function dispatchCredentials(
  options: {
    origin?: unknown;
    path?: unknown;
    headers?: unknown;
  },
  known: readonly string[] = [],
): Credentials {
  const credentials = new Credentials();
  credentials.known(known);
  attempt(() => credentials.url(options.path, options.origin));
  attempt(() => credentials.headers(options.headers));
  return credentials;
}

/**
 * The credentials a vendor SDK's error carries about its request: axios `config` (`headers`,
 * `url`, `baseURL`, `params`, `auth`), Octokit `request` (`url`, `headers`), got and ky
 * `options` (`headers`, `url`, `searchParams`, `username`, `password`), ky's `request`, and the
 * URLs of the error and its response; and the `known` values the caller named.
 */
export function errorCredentials(error: unknown, known: readonly string[] = []): Credentials {
  const credentials = new Credentials();
  for (const value of known) credentials.token("known", value);
  if (!isObject(error)) return credentials;
  for (const holder of [read(error, "config"), read(error, "request"), read(error, "options")]) {
    if (!isObject(holder)) continue;
    attempt(() => credentials.headers(read(holder, "headers")));
    attempt(() => credentials.url(read(holder, "url"), read(holder, "baseURL")));
    attempt(() => credentials.query(read(holder, "params")));
    attempt(() => credentials.query(read(holder, "searchParams")));
    const auth = read(holder, "auth");
    attempt(() => credentials.token("userinfo", isObject(auth) ? read(auth, "password") : auth));
    attempt(() => credentials.token("userinfo", read(holder, "password")));
  }
  const response = read(error, "response");
  for (const url of [
    read(error, "url"),
    isObject(response) ? read(response, "url") : undefined,
    isObject(response) ? read(response, "requestUrl") : undefined,
  ]) {
    attempt(() => credentials.url(url));
  }
  return credentials;
}

/**
 * The credentials of the MCP request a tool call serves: SDK 1.x `extra.authInfo.token` and
 * `extra.requestInfo.headers`; SDK 2.x `ctx.http.authInfo.token` and `ctx.http.req.headers`.
 */
export function mcpRequestCredentials(context: unknown): Credentials {
  const credentials = new Credentials();
  if (!isObject(context)) return credentials;
  const http = read(context, "http");
  for (const holder of [context, http]) {
    if (!isObject(holder)) continue;
    const authInfo = read(holder, "authInfo");
    attempt(() =>
      credentials.token("mcp", isObject(authInfo) ? read(authInfo, "token") : undefined),
    );
  }
  // A verified token is who the caller is: headers beside it (which a caller may rotate at will
  // to slip out of a cooldown) are not looked at.
  if (!credentials.isEmpty) return credentials;
  const requestInfo = read(context, "requestInfo");
  attempt(() =>
    credentials.headers(isObject(requestInfo) ? read(requestInfo, "headers") : undefined),
  );
  const request = isObject(http) ? read(http, "req") : undefined;
  attempt(() => credentials.headers(isObject(request) ? read(request, "headers") : undefined));
  return credentials;
}

/** An object literal (or one made without a prototype): its own keys are its headers. */
function isPlainRecord(raw: unknown): raw is Record<string, unknown> {
  if (!isObject(raw)) return false;
  const prototype = Object.getPrototypeOf(raw);
  return prototype === Object.prototype || prototype === null;
}

/** Name–value pairs of headers (or query parameters) in any shape; nothing for anything else. */
function* headerEntries(raw: unknown): Generator<[unknown, unknown]> {
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

function parseUrl(raw: unknown, base: unknown): URL | undefined {
  if (raw instanceof URL) return raw;
  if (typeof raw !== "string" || raw === "") return undefined;
  try {
    return typeof base === "string" || base instanceof URL ? new URL(raw, base) : new URL(raw);
  } catch {
    return undefined;
  }
}

function primitive(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" || typeof value === "bigint"
    ? String(value)
    : undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function decodeBase64(text: string): string | undefined {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Runs `gather`; a hostile object that throws on the way only ends that part of the search. */
function attempt(gather: () => void): void {
  try {
    gather();
  } catch {
    // Whatever was gathered before the throw is kept.
  }
}
