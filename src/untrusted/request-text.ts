// The text a request carried, as an upstream may echo it back: its path (as sent and decoded,
// whole and by segment), its query's names and values, and a body the caller handed over as text
// (a string, bytes, a form, JSON's strings). Detection holds the upstream's message against it:
// words the caller wrote are not the upstream's (the security guide). Gathered only when a
// throttle's message is judged, never on a success.

import { isObject, readProperty as read } from "../internal/is-object.js";
import { attempt, headerEntries, parseUrl, primitive, safeDecode } from "./credential-parts.js";
import type { FetchInput } from "./credentials.js";

/** Pieces gathered at most, and the longest body text looked at (an echo is a short sentence). */
const MAX_PIECES = 256;
const MAX_BODY_UNITS = 64 * 1024;

/** The pieces of one request an upstream may echo. */
class RequestText {
  readonly pieces: string[] = [];

  #add(text: string): void {
    if (text !== "" && this.pieces.length < MAX_PIECES) this.pieces.push(text);
  }

  url(raw: unknown, base?: unknown): void {
    const url = parseUrl(typeof raw === "string" || raw instanceof URL ? raw : undefined, base);
    if (url === undefined) return;
    this.#add(url.pathname);
    this.#add(safeDecode(url.pathname));
    for (const segment of url.pathname.split("/")) this.#add(safeDecode(segment));
    url.searchParams.forEach((value, name) => {
      this.#add(name);
      this.#add(value);
    });
  }

  body(raw: unknown): void {
    if (typeof raw === "string") this.#text(raw);
    else if (raw instanceof Uint8Array || raw instanceof ArrayBuffer) {
      const bytes = raw instanceof ArrayBuffer ? new Uint8Array(raw) : raw;
      this.#text(new TextDecoder().decode(bytes.subarray(0, MAX_BODY_UNITS)));
    } else if (isObject(raw) && typeof read(raw, "forEach") === "function") {
      // URLSearchParams, FormData: their text values (a stream or a Blob is never read here).
      for (const [name, value] of headerEntries(raw)) {
        const text = primitive(value);
        if (typeof name === "string") this.#add(name);
        if (text !== undefined) this.#add(text);
      }
    }
  }

  #text(raw: string): void {
    const text = raw.length > MAX_BODY_UNITS ? raw.slice(0, MAX_BODY_UNITS) : raw;
    this.#add(text);
    const trimmed = text.trimStart();
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      try {
        this.#strings(JSON.parse(text), 0);
      } catch {
        // Not JSON after all: the text itself is the piece.
      }
    } else if (text.includes("=")) this.body(new URLSearchParams(text));
  }

  /** A JSON value's strings (and keys), a few levels deep. */
  #strings(value: unknown, depth: number): void {
    if (typeof value === "string") this.#add(value);
    if (depth > 8 || !isObject(value)) return;
    for (const [key, item] of Object.entries(value)) {
      if (this.pieces.length >= MAX_PIECES) return;
      if (!Array.isArray(value)) this.#add(key);
      this.#strings(item, depth + 1);
    }
  }
}

/** The text of a `fetch(input, init)` call: its URL, and `init.body` when it is text. */
export function fetchRequestText(input: FetchInput, init: RequestInit | undefined): string[] {
  const text = new RequestText();
  attempt(() => text.url(isObject(input) && !(input instanceof URL) ? input.url : input));
  attempt(() => text.body(init?.body));
  return text.pieces;
}

/** The text of an undici dispatch: `path` (against `origin`), and `body` when it is text. */
export function dispatchRequestText(options: {
  origin?: unknown;
  path?: unknown;
  body?: unknown;
}): string[] {
  const text = new RequestText();
  attempt(() => text.url(options.path, options.origin ?? "http://localhost"));
  attempt(() => text.body(options.body));
  return text.pieces;
}

/**
 * The text of the request a vendor SDK's error describes: axios `config` (`url` against
 * `baseURL`, `params`, `data`), Octokit's `request`, got's and ky's `options` (`url`,
 * `searchParams`, `body`, `json`).
 */
export function errorRequestText(error: unknown): string[] {
  const text = new RequestText();
  if (!isObject(error)) return text.pieces;
  for (const name of ["config", "request", "options"]) {
    let holder: unknown;
    attempt(() => {
      holder = read(error, name);
    });
    if (!isObject(holder)) continue;
    const from = holder;
    attempt(() => text.url(read(from, "url"), read(from, "baseURL")));
    for (const field of ["params", "searchParams", "data", "body", "json"]) {
      attempt(() => {
        const value = read(from, field);
        text.body(isPlainData(value) ? JSON.stringify(value) : value);
      });
    }
  }
  return text.pieces;
}

/** A plain object or array (axios `params` and `data`), read as the JSON it is sent as. */
function isPlainData(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (!isObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
