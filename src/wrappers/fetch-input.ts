// What a `fetch(input, init)` call asks for, read from either argument: its host, signal,
// method, and whether its body can be sent twice.

import { parsedHost, urlHost } from "../internal/url-host.js";
import type { FetchInput } from "../untrusted/credentials.js";

/** The URL string asked for last, and its host: a wrapper calls the same URL again and again. */
let lastUrl: string | undefined;
let lastHost: string | undefined;

/** The host a fetch call asks for. */
export function inputHost(input: FetchInput): string | undefined {
  if (typeof input !== "string") return parsedHost(requestUrl(input));
  // The host is a function of the string alone: the same string has the same host.
  if (input !== lastUrl) {
    lastHost = urlHost(input);
    lastUrl = input;
  }
  return lastHost;
}

/** The URL a fetch call requests, when it parses. */
function requestUrl(input: FetchInput): URL | undefined {
  try {
    if (input instanceof URL) return input;
    return new URL(typeof input === "string" ? input : input.url);
  } catch {
    return undefined;
  }
}

export function signalOf(
  input: FetchInput,
  init: RequestInit | undefined,
): AbortSignal | null | undefined {
  return init?.signal ?? (input instanceof Request ? input.signal : undefined);
}

export function methodOf(input: FetchInput, init: RequestInit | undefined): string {
  return init?.method ?? (input instanceof Request ? input.method : "GET");
}

/**
 * Whether the request can be sent again with the same bytes: no body, or one fetch reads anew
 * each time (a string, bytes, a `Blob`, `URLSearchParams`, `FormData`). A stream, an async
 * iterable (a Node `Readable`) or anything else is spent after one send; a `Request`'s body too.
 */
export function replayable(input: FetchInput, init: RequestInit | undefined): boolean {
  const body: unknown = init?.body;
  if (body !== undefined && body !== null) return isReplayableBody(body);
  return !(input instanceof Request && input.body !== null);
}

export function isReplayableBody(body: unknown): boolean {
  return (
    typeof body === "string" ||
    Object.prototype.toString.call(body) === "[object ArrayBuffer]" ||
    ArrayBuffer.isView(body) ||
    (typeof Blob === "function" && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    (typeof FormData === "function" && body instanceof FormData)
  );
}
