// Which part of a credential names the caller, for the cooldown partition: the value alone,
// whatever header family or parameter carried it, and of a key that signs each request (AWS
// SigV4, OAuth 1.0a, a `?signature=` beside a key header) the key, never the signature, nonce or
// time that changes on every request. Redaction still cuts every value; only the identity differs.

/**
 * A name whose value is new on every request: an idempotency key, a page's token (`pageToken`,
 * `next_token`, `continuationToken`), or a request's signature (`X-Amz-Signature`, Binance's
 * `signature`, Azure's `sig`, `x-hub-signature`) and its signed-header list. It is redacted, but
 * kept out of the upstream credential: it would give each request, or each page, a cooldown
 * partition of its own.
 */
export function perRequest(lowerName: string): boolean {
  let verdict = perRequestNames.get(lowerName);
  if (verdict === undefined) {
    verdict = PER_REQUEST_NAME.test(lowerName);
    // A server sends the same few names on every request; a flood of new ones only resets this.
    if (perRequestNames.size >= 1024) perRequestNames.clear();
    perRequestNames.set(lowerName, verdict);
  }
  return verdict;
}

const PER_REQUEST_NAME =
  /idempotency|page_?token|continuation|next_?token|signature|signedheaders|(?:^|[-_])sig(?:$|[-_])|nonce|timestamp|websocket-key/;

const perRequestNames = new Map<string, boolean>();

/** The head of every upstream credential's identity line: the value alone, whatever carried it. */
export const SECRET_LINE = "secret:=";

/**
 * The stable part of a credential value: an AWS credential scope
 * (`AKIDEXAMPLE/20261203/us-east-1/s3/aws4_request`) names its key by the part before the first
 * `/`; the date after it changes every day, the region and service with the endpoint.
 */
export function stablePart(lowerName: string, value: string): string {
  if (!lowerName.endsWith("credential")) return value;
  const slash = value.indexOf("/");
  return slash > 0 ? value.slice(0, slash) : value;
}

/** Basic credentials (or URL userinfo): the password is the secret; without one, the user (Stripe's `sk_…:`). */
export function basicSecret(user: string, password: string): string {
  return password === "" ? user : password;
}

// An auth-param list (`Credential=…, Signature=…`, `oauth_token="…"`), not a token68 (`abc==`).
const AUTH_PARAMS = /^[!#$%&'*+.^_`|~\w-]+\s*=\s*[^=\s]/;
const AUTH_PARAM = /([!#$%&'*+.^_`|~\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)/g;
// The params that name who signs: SigV4 `Credential`, OAuth 1.0a `oauth_consumer_key` and
// `oauth_token`, Digest `username`, HTTP Signatures `keyId`, Hawk and MAC `id`.
const STABLE_PARAM = /key|token|credential|user|^id$|client|account|access/;
// What changes on every request: a signature, a nonce, a time, a Digest response, the URI signed.
const CHANGING_PARAM =
  /sig|nonce|^ts$|timestamp|date|created|expires|^nc$|response|^mac$|^uri$|signedheaders/;

const authorizations = new Map<string, readonly string[]>();

/**
 * The stable values an `Authorization` header names its caller by: a token's value without its
 * scheme (`Bearer`, `token`), a Basic password decoded, and of a signed scheme (AWS SigV4,
 * OAuth 1.0a, Digest, HTTP Signatures) the key it names, never its signature, nonce or time.
 */
export function authorizationSecrets(text: string): readonly string[] {
  let known = authorizations.get(text);
  if (known === undefined) {
    known = parseAuthorization(text.trim());
    if (authorizations.size >= 1024) authorizations.clear();
    authorizations.set(text, known);
  }
  return known;
}

function parseAuthorization(text: string): readonly string[] {
  const scheme = /^([A-Za-z][\w!#$%&'*+.^`|~-]*)\s+(\S[\s\S]*)$/.exec(text);
  const rest = scheme?.[2]?.trim();
  if (scheme === null || rest === undefined) return [text];
  if (AUTH_PARAMS.test(rest)) return paramSecrets(rest);
  if (scheme[1]?.toLowerCase() === "basic") {
    const decoded = decodeBase64(rest);
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded !== undefined && colon !== -1)
      return [basicSecret(decoded.slice(0, colon), decoded.slice(colon + 1))];
  }
  return [rest];
}

/** The stable params' values; without any named so, every param that does not change. */
function paramSecrets(list: string): readonly string[] {
  const stable: string[] = [];
  const other: string[] = [];
  for (const match of list.matchAll(AUTH_PARAM)) {
    const name = (match[1] ?? "").toLowerCase();
    const raw = match[2] ?? "";
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    if (value === "" || CHANGING_PARAM.test(name)) continue;
    (STABLE_PARAM.test(name) ? stable : other).push(stablePart(name, value));
  }
  if (stable.length > 0) return stable;
  return other.length > 0 ? other : [list];
}

/** Base64 (or base64url) text decoded as UTF-8, or `undefined` when it is neither. */
export function decodeBase64(text: string): string | undefined {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
