// Rate-limit headers an upstream puts inside its JSON body. OpenRouter relays them in the error:
//   { "error": { "code": 429, "metadata": { "headers": {
//       "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1741305600000" } } } }
// (and a provider's `Retry-After` the same way). They are read as headers, after the response's
// own: bounded (a few short fields), values only as strings, and through the same rules, so that
// nothing of them reaches a result but a delay and a limit name the limit-name door let through.

import { isObject, readProperty } from "../internal/is-object.js";
import { type HeaderReader, readHeaders } from "./headers.js";

const MAX_FIELDS = 32;
const MAX_NAME = 64;
const MAX_VALUE = 256;

/** The header fields a JSON body carries (OpenRouter's `error.metadata.headers`), if any. */
export function bodyHeaders(body: unknown): HeaderReader | undefined {
  try {
    return relayedHeaders(body);
  } catch {
    // A hostile body (a revoked proxy, a throwing key list): no relayed fields, the rest stands.
    return undefined;
  }
}

function relayedHeaders(body: unknown): HeaderReader | undefined {
  const error = isObject(body) ? readProperty(body, "error") : undefined;
  const metadata = isObject(error) ? readProperty(error, "metadata") : undefined;
  const fields = isObject(metadata) ? readProperty(metadata, "headers") : undefined;
  if (!isObject(fields) || Array.isArray(fields)) return undefined;
  const copy: Record<string, string> = Object.create(null);
  let count = 0;
  for (const name of Object.keys(fields)) {
    if (count === MAX_FIELDS) break;
    const value = readProperty(fields, name);
    if (name.length > MAX_NAME || typeof value !== "string" || value.length > MAX_VALUE) continue;
    copy[name] = value;
    count += 1;
  }
  return count === 0 ? undefined : readHeaders(copy);
}

/**
 * `primary`'s fields, and `fallback`'s where `primary` has none of that name. Only `primary`'s
 * names are listed: the rules that take a field's own name as the delay source (the
 * `x-…-ratelimit-…-reset` families) read the response's fields, never a body's.
 */
export function withFallback(primary: HeaderReader, fallback: HeaderReader): HeaderReader {
  return {
    get: (name) => primary.get(name) ?? fallback.get(name),
    has: (name) => primary.has(name) || fallback.has(name),
    names: () => primary.names(),
    fields: primary.fields | fallback.fields,
  };
}
