// An upstream's message may echo what it was sent. Before a message can reach a tool result,
// every credential of the request that produced it is cut out.

/** What `fetch` takes as its first argument: a URL string, a `URL` or a `Request`. */
export type FetchInput = Parameters<typeof fetch>[0];

/** Request headers that carry a credential. */
export const CREDENTIAL_HEADERS = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-access-token",
  "private-token",
];

// Short query values ("1", "json") are too common to cut from prose; keys and tokens are not.
const MIN_QUERY_SECRET = 6;

/** The credential values of a fetch request: its credential headers, its URL's userinfo and query values. */
export function requestSecrets(input: FetchInput, init?: RequestInit): string[] {
  return secretsOf(requestUrl(input), requestHeaders(input, init));
}

/** The headers a fetch call sends: the `Request`'s, overridden by `init.headers`. */
export function requestHeaders(input: FetchInput, init?: RequestInit): Headers {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  try {
    new Headers(init?.headers).forEach((value, name) => {
      headers.set(name, value);
    });
  } catch {
    // Headers fetch itself would refuse carry nothing to match.
  }
  return headers;
}

/** The same for an undici dispatch: `origin` + `path`, and headers in any of undici's forms. */
export function dispatchSecrets(opts: {
  origin?: unknown;
  path?: unknown;
  headers?: unknown;
}): string[] {
  let url: URL | undefined;
  try {
    url = new URL(String(opts.path ?? ""), String(opts.origin));
  } catch {
    url = undefined;
  }
  return secretsOf(url, undiciHeaders(opts.headers));
}

function secretsOf(url: URL | undefined, headers: Headers): string[] {
  const secrets: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    secrets.push(value);
    // "Bearer abc", "token abc", cookie "a=1; b=2": each part may be echoed alone.
    for (const part of value.split(/[\s;,=]+/)) {
      if (part.length >= MIN_QUERY_SECRET) secrets.push(part);
    }
  }
  if (url !== undefined) {
    if (url.username) secrets.push(safeDecode(url.username));
    if (url.password) secrets.push(safeDecode(url.password));
    url.searchParams.forEach((value) => {
      if (value.length >= MIN_QUERY_SECRET) secrets.push(value);
    });
  }
  // Longest first, so a token is cut whole before any part of it.
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

/** undici takes headers as an object, a flat `[name, value, …]` array, or an iterable of pairs. */
export function undiciHeaders(raw: unknown): Headers {
  const headers = new Headers();
  const add = (name: unknown, value: unknown) => {
    try {
      headers.append(String(name), Array.isArray(value) ? value.join(", ") : String(value));
    } catch {
      // An invalid header name or value carries no credential we could match.
    }
  };
  if (Array.isArray(raw)) {
    if (raw.every(Array.isArray)) for (const [name, value] of raw) add(name, value);
    else for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i], raw[i + 1]);
  } else if (raw !== null && typeof raw === "object") {
    const entries =
      Symbol.iterator in raw ? (raw as Iterable<[unknown, unknown]>) : Object.entries(raw);
    for (const [name, value] of entries) add(name, value);
  }
  return headers;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== "") result = result.split(secret).join("[redacted]");
  }
  return result;
}

/** The URL a fetch call requests, when it parses. */
export function requestUrl(input: FetchInput): URL | undefined {
  try {
    if (input instanceof URL) return input;
    return new URL(typeof input === "string" ? input : input.url);
  } catch {
    return undefined;
  }
}
