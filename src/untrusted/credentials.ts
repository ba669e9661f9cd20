// A request's credentials (the untrusted-data rules, the security guide), in one definition that
// serves both redaction (cut them from what an upstream says) and the cooldown partition (which
// caller a request belongs to): `Authorization`, `Proxy-Authorization`, `Cookie`, every header and
// query parameter whose name says it holds a secret, URL userinfo, and URL path segments shaped
// like a token.

import { isObject, readProperty as read } from "../internal/is-object.js";
import {
  attempt,
  cachedMatcher,
  credentialHeader,
  expandValues,
  Form,
  headerEntries,
  isCredentialName,
  isPlainRecord,
  isTokenSegment,
  parseUrl,
  plainUrl,
  primitive,
  safeDecode,
} from "./credential-parts.js";
import { SecretMatcher } from "./secrets.js";
import {
  authorizationSecrets,
  basicSecret,
  perRequest,
  SECRET_LINE,
  stablePart,
} from "./stable-identity.js";

/**
 * The credentials found on one request, gathered from whatever shape it came in. Gathering is
 * cheap (the identity lines, and the raw values): the forms an upstream may echo a value in
 * are made only when a matcher is asked for, and a matcher is built once per set of values.
 */
export class Credentials {
  /**
   * `secret:=value` lines (an MCP token's `mcp:=`, a cookie header's `header:cookie=`, a path
   * token's `path:=`): the input of the partition hash (made with the second line). A line names
   * a credential's stable value, not the header or parameter that carried it.
   */
  #lines: Set<string> | undefined;
  /**
   * The first line, as `kind:name=` and its value: most requests carry one credential, whose
   * partition is then found by the two strings the request holds, without joining them.
   */
  #prefix: string | undefined;
  #value = "";
  /**
   * Token-shaped path segments: the credential of a request that carries no other (a webhook's
   * URL); beside one, a resource's id (a Drive file), which must not split the key's partition.
   */
  #pathLines: string[] | undefined;
  /** Raw values for redaction, each with how to expand it: [form, text, form, text, …]. */
  readonly #raw: (Form | string)[] = [];
  #matcher: SecretMatcher | undefined;

  get isEmpty(): boolean {
    return this.#prefix === undefined && this.#pathLines === undefined;
  }

  /** Sorted, deduplicated identity lines. */
  lines(): string[] {
    if (this.#lines !== undefined) return [...this.#lines].sort();
    if (this.#prefix !== undefined) return [this.#prefix + this.#value];
    return this.#pathLines === undefined ? [] : [...new Set(this.#pathLines)].sort();
  }

  /** The lines joined by newlines: the input of the partition hash. */
  identity(): string {
    const single = this.single();
    return single === undefined ? this.lines().join("\n") : single[0] + single[1];
  }

  /**
   * The identity of a request with exactly one line, in its two parts (`kind:name=`, value):
   * `identity()` is their concatenation. `undefined` for any other request.
   */
  single(): readonly [prefix: string, value: string] | undefined {
    if (this.#prefix === undefined || this.#lines !== undefined || this.#pathLines !== undefined)
      return undefined;
    return [this.#prefix, this.#value];
  }

  #addLine(prefix: string, value: string): void {
    if (this.#prefix === undefined) {
      this.#prefix = prefix;
      this.#value = value;
    } else if (this.#lines !== undefined) this.#lines.add(prefix + value);
    else if (prefix !== this.#prefix || value !== this.#value)
      this.#lines = new Set([this.#prefix + this.#value, prefix + value]);
  }

  /** A matcher for every form of every value, for redaction; built once per set of values. */
  matcher(): SecretMatcher {
    if (this.#matcher !== undefined) return this.#matcher;
    if (this.#raw.length === 0) {
      this.#matcher = SecretMatcher.EMPTY;
      return this.#matcher;
    }
    this.#matcher = cachedMatcher(this.#raw.join("\u0000"), () => {
      const values = expandValues(this.#raw);
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
    const known = credentialHeader(name);
    // An idempotency key or a page's token is new on every request: kept out of what is an
    // upstream credential (it would make each request a partition of its own), still redacted.
    // `Authorization`: the token without its scheme, a Basic password, a signed scheme's key.
    if (known.prefix !== undefined && known.form === Form.Basic)
      for (const value of authorizationSecrets(text)) this.#addLine(SECRET_LINE, value);
    else if (known.prefix !== undefined) this.#addLine(known.prefix, text);
    this.#raw.push(known.form, text);
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
    if (url.username !== "" || url.password !== "") {
      const user = safeDecode(url.username);
      const password = safeDecode(url.password);
      // As Basic credentials: the password names the caller, the user without one.
      this.#addLine(SECRET_LINE, basicSecret(user, password));
      if (user !== "") this.#raw.push(Form.Value, user);
      if (password !== "") this.#raw.push(Form.Value, password);
    }
    if (url.search !== "") {
      url.searchParams.forEach((value, name) => {
        if (isCredentialName(name)) this.#add(name.toLowerCase(), value);
      });
    }
    const path = url.pathname;
    // A token segment is 20+ characters: a shorter path holds none.
    if (path.length < 21) return;
    for (const segment of path.split("/")) {
      if (segment.length < 20) continue;
      const decoded = safeDecode(segment);
      if (!isTokenSegment(decoded)) continue;
      this.#pathLines ??= [];
      this.#pathLines.push(`path:=${decoded}`);
      this.#raw.push(Form.Value, decoded);
    }
  }

  /** Query parameters given apart from the URL (axios `params`, got `searchParams`). */
  query(raw: unknown): void {
    for (const [name, value] of headerEntries(raw)) {
      const text = primitive(value);
      if (typeof name === "string" && isCredentialName(name) && text !== undefined && text !== "")
        this.#add(name.toLowerCase(), text);
    }
  }

  /** A credential known by itself: an MCP request's token (`"mcp"`), else an upstream one. */
  token(kind: string, value: unknown): void {
    if (typeof value !== "string" || value === "") return;
    this.#addLine(kind === "mcp" ? "mcp:=" : SECRET_LINE, value);
    this.#raw.push(Form.Value, value);
  }

  /** A credential query parameter: its stable part names the caller, whatever it is called. */
  #add(lowerName: string, value: string): void {
    if (!perRequest(lowerName)) this.#addLine(SECRET_LINE, stablePart(lowerName, value));
    this.#raw.push(Form.Value, value);
  }
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
  for (const value of known) credentials.token("upstream", value);
  if (!isObject(error)) return credentials;
  for (const holder of [read(error, "config"), read(error, "request"), read(error, "options")]) {
    if (!isObject(holder)) continue;
    attempt(() => credentials.headers(read(holder, "headers")));
    attempt(() => credentials.url(read(holder, "url"), read(holder, "baseURL")));
    attempt(() => credentials.query(read(holder, "params")));
    attempt(() => credentials.query(read(holder, "searchParams")));
    const auth = read(holder, "auth");
    attempt(() => credentials.token("upstream", isObject(auth) ? read(auth, "password") : auth));
    attempt(() => credentials.token("upstream", read(holder, "password")));
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
