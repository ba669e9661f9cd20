// nock helpers. nock itself is not imported: pass the scope you made with `nock(origin)`.

/** The part of a nock `Scope` used here. */
export interface NockScopeLike {
  /** nock's `scope.intercept(path, method)`. */
  intercept(
    path: string | RegExp,
    method: string,
  ): {
    /** nock's `.reply(status, body, headers)`. */
    reply(status: number, body?: unknown, headers?: Record<string, string>): unknown;
  };
}

/** Options of `nockRateLimited`: what the throttled answer looks like. */
export interface NockRateLimitedOptions {
  /** `Retry-After` value (seconds or an HTTP-date); omitted when undefined. @default "60" */
  retryAfter?: string | number | undefined;
  /** Extra response headers (IETF fields, GitHub's x-ratelimit-*). */
  headers?: Record<string, string>;
  /** The response body. @default { message: "Too many requests" } */
  body?: unknown;
  /** The response status. @default 429 */
  status?: number;
  /** The request method to intercept. @default "GET" */
  method?: string;
}

/**
 * Makes `scope` answer `path` with a throttle: `nockRateLimited(nock(API), "/search", { retryAfter: 30 })`.
 *
 * On Node 20 with nock 15: nock 15 intercepts through `@mswjs/interceptors`, which calls
 * `Promise.withResolvers` (Node 22). Without it, the intercepted `fetch` fails with
 * "Promise.withResolvers is not a function". Use nock 14, or put this line (TypeScript or
 * JavaScript alike) in a test setup file:
 * `if (!("withResolvers" in Promise)) Object.assign(Promise, { withResolvers: () => { const handlers = {}; const promise = new Promise((resolve, reject) => Object.assign(handlers, { resolve, reject })); return { promise, ...handlers }; } });`
 *
 * @example
 * ```ts
 * import { throttledFetch } from "mcp-upstream-throttle";
 * import { nockRateLimited } from "mcp-upstream-throttle/testing";
 * import nock from "nock";
 *
 * nockRateLimited(nock("https://api.example.com"), "/search", { retryAfter: 30 });
 * const api = throttledFetch({ limit: "search" });
 * await api("https://api.example.com/search").catch((error: unknown) => error); // a throttle, 30 s
 * ```
 */
export function nockRateLimited<Scope extends NockScopeLike>(
  scope: Scope,
  path: string | RegExp,
  options: NockRateLimitedOptions = {},
): Scope {
  const retryAfter = "retryAfter" in options ? options.retryAfter : "60";
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...options.headers,
  };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  scope
    .intercept(path, options.method ?? "GET")
    .reply(options.status ?? 429, options.body ?? { message: "Too many requests" }, headers);
  return scope;
}
