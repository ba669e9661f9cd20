// nock helpers. nock itself is not imported: pass the scope you made with `nock(origin)`.

/** The part of a nock `Scope` used here. */
export interface NockScopeLike {
  intercept(
    path: string | RegExp,
    method: string,
  ): {
    reply(status: number, body?: unknown, headers?: Record<string, string>): unknown;
  };
}

export interface NockRateLimitedOptions {
  /** `Retry-After` value (seconds or an HTTP-date); omitted when undefined. @default "60" */
  retryAfter?: string | number | undefined;
  /** Extra response headers (IETF fields, GitHub's x-ratelimit-*). */
  headers?: Record<string, string>;
  /** The response body. @default { message: "Too many requests" } */
  body?: unknown;
  /** @default 429 */
  status?: number;
  /** @default "GET" */
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
