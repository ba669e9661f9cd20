// An upstream's message may echo what it was sent. Before a message can reach a tool result,
// every credential of the request that produced it is cut out.

/** What `fetch` takes as its first argument: a URL string, a `URL` or a `Request`. */
export type FetchInput = Parameters<typeof fetch>[0];

const CREDENTIAL_HEADERS = [
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

/** The credential values of a request: its credential headers, its URL's userinfo and query values. */
export function requestSecrets(input: FetchInput, init?: RequestInit): string[] {
  const secrets: string[] = [];
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  new Headers(init?.headers).forEach((value, name) => {
    headers.set(name, value);
  });
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    secrets.push(value);
    // "Bearer abc", "token abc", cookie "a=1; b=2": each part may be echoed alone.
    for (const part of value.split(/[\s;,=]+/))
      if (part.length >= MIN_QUERY_SECRET) secrets.push(part);
  }
  const url = parseUrl(input);
  if (url !== undefined) {
    if (url.username) secrets.push(decodeURIComponent(url.username));
    if (url.password) secrets.push(decodeURIComponent(url.password));
    url.searchParams.forEach((value) => {
      if (value.length >= MIN_QUERY_SECRET) secrets.push(value);
    });
  }
  // Longest first, so a token is cut whole before any part of it.
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== "") result = result.split(secret).join("[redacted]");
  }
  return result;
}

function parseUrl(input: FetchInput): URL | undefined {
  try {
    if (input instanceof URL) return input;
    return new URL(typeof input === "string" ? input : input.url);
  } catch {
    return undefined;
  }
}
