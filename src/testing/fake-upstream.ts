// A real rate-limited HTTP API on 127.0.0.1 for tool authors' tests: fixed windows per path
// (and per caller, if asked), throttled in the header style of the provider you pick.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How a throttle is announced, after the provider conventions the library reads. */
export type ThrottleStyle =
  /** 429 with `Retry-After: <seconds>` (RFC 9110). */
  | "retry-after-seconds"
  /** 429 with `Retry-After: <HTTP-date>`. */
  | "retry-after-date"
  /** 429 with the IETF `RateLimit` / `RateLimit-Policy` structured fields. */
  | "ietf"
  /** 403 with `x-ratelimit-remaining: 0`, an epoch `x-ratelimit-reset` and `x-ratelimit-resource` (GitHub). */
  | "github"
  /** 429 with a JSON-RPC `-32023` body carrying `data.retryAfterMs` (SEP-3304). */
  | "sep3304";

/** One limit of the fake upstream: a fixed window of `limit` requests per `windowMs`. */
export interface FakeLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** How a throttle is announced. @default the upstream's `style` */
  style?: ThrottleStyle;
  /** The limit's name where a style names it (IETF policy, GitHub resource). @default the path without its slash */
  name?: string;
  /** Count each caller (`Authorization` header) on its own. @default false: one window for all */
  perCaller?: boolean;
}

/** Options of `startFakeUpstream`: its limits, how it announces throttles, and its clock. */
export interface FakeUpstreamOptions {
  /** Limits by path; paths not listed are unlimited. @default { "/search": { limit: 5, windowMs: 60_000 } } */
  limits?: Record<string, FakeLimit>;
  /** Default style of every limit. @default "retry-after-seconds" */
  style?: ThrottleStyle;
  /** Paths that never answer, to watch a caller abort (see `closedEarly`). @default [] */
  hang?: string[];
  /** Extra headers on every throttled response (e.g. a Set-Cookie, to prove it never leaks). */
  throttleHeaders?: Record<string, string>;
  /** The clock. @default Date.now */
  now?: () => number;
}

/** A running fake upstream: its URL, what it saw, and how to stop it. */
export interface FakeUpstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests seen, by path. */
  readonly requests: Map<string, number>;
  /** Requests whose connection closed before they were answered, by path. */
  readonly closedEarly: Map<string, number>;
  /** The headers of the last request. */
  readonly lastRequestHeaders: IncomingMessage["headers"] | undefined;
  /** Forgets every window and count. */
  reset(): void;
  /** Stops the server and closes every connection. */
  close(): Promise<void>;
}

const THROTTLE_MESSAGE = "This endpoint has been requested too many times. Try again later.";

/**
 * Starts a real rate-limited HTTP API on 127.0.0.1 (a free port) for a tool's tests: fixed
 * windows per path, throttled in the header style of the provider you pick.
 *
 * @example
 * ```ts
 * import { throttledFetch } from "mcp-upstream-throttle";
 * import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
 *
 * const upstream = await startFakeUpstream({
 *   limits: { "/search": { limit: 1, windowMs: 60_000, style: "github" } },
 * });
 * const api = throttledFetch({ limit: "search" });
 * await api(`${upstream.url}/search`); // 200
 * await api(`${upstream.url}/search`).catch((error: unknown) => error); // the throttle
 * await upstream.close();
 * ```
 */
export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const limits = checkedLimits(options.limits ?? { "/search": { limit: 5, windowMs: 60_000 } });
  const now = options.now ?? Date.now;
  const hang = new Set(options.hang ?? []);
  const windows = new Map<string, Window>();
  const requests = new Map<string, number>();
  const closedEarly = new Map<string, number>();
  let lastRequestHeaders: IncomingMessage["headers"] | undefined;
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://upstream.invalid");
    const path = url.pathname;
    bump(requests, path);
    lastRequestHeaders = req.headers;
    res.on("close", () => {
      if (!res.writableFinished) bump(closedEarly, path);
    });
    if (hang.has(path)) return;
    const rule = limits[path];
    if (rule !== undefined) {
      const at = now();
      const window = counted(windows, rule, path, req, at);
      if (window.count > rule.limit) {
        const style = rule.style ?? options.style ?? "retry-after-seconds";
        const name = rule.name ?? path.replace(/^\//, "");
        const answer = throttleAnswer(style, name, window.start + rule.windowMs, at, rule.limit);
        res.writeHead(answer.status, { ...options.throttleHeaders, ...answer.headers });
        res.end(JSON.stringify(answer.body));
        return;
      }
    }
    const query = url.searchParams.get("q") ?? url.searchParams.get("query") ?? "";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ query, hits: [`${query} — first result`, `${query} — second result`] }),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closedEarly,
    get lastRequestHeaders() {
      return lastRequestHeaders;
    },
    reset: () => {
      windows.clear();
      requests.clear();
      closedEarly.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The limits, each checked: a whole `limit` >= 0 and a `windowMs` > 0. */
function checkedLimits(limits: Record<string, FakeLimit>): Record<string, FakeLimit> {
  for (const [path, rule] of Object.entries(limits)) {
    if (!Number.isInteger(rule.limit) || rule.limit < 0 || !(rule.windowMs > 0)) {
      throw new RangeError(
        `\`limits["${path}"]\` needs a whole \`limit\` >= 0 and a \`windowMs\` > 0`,
      );
    }
  }
  return limits;
}

interface Window {
  start: number;
  count: number;
}

/** Counts a request in its window (a new one once the last has ended) and returns the window. */
function counted(
  windows: Map<string, Window>,
  rule: FakeLimit,
  path: string,
  req: IncomingMessage,
  at: number,
): Window {
  const key = rule.perCaller ? `${path} ${req.headers.authorization ?? ""}` : path;
  let window = windows.get(key);
  if (window === undefined || at - window.start >= rule.windowMs) {
    window = { start: at, count: 0 };
    windows.set(key, window);
  }
  window.count += 1;
  return window;
}

interface ThrottleAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The throttled response of one style: its status, headers and JSON body. */
function throttleAnswer(
  style: ThrottleStyle,
  name: string,
  resetAt: number,
  now: number,
  limit: number,
): ThrottleAnswer {
  const seconds = Math.max(0, Math.ceil((resetAt - now) / 1000));
  // A Date header on the upstream's own clock, as a real server sends: with an injected clock,
  // the response stays coherent (the library measures reset times against it).
  const json = { "content-type": "application/json", date: new Date(now).toUTCString() };
  const body = { message: THROTTLE_MESSAGE };
  switch (style) {
    case "retry-after-seconds":
      return { status: 429, headers: { ...json, "retry-after": String(seconds) }, body };
    case "retry-after-date":
      return {
        status: 429,
        headers: { ...json, "retry-after": new Date(resetAt).toUTCString() },
        body,
      };
    case "ietf": {
      const policy = `"${name}";q=${limit};w=${seconds}`;
      const headers = {
        ...json,
        "ratelimit-policy": policy,
        ratelimit: `"${name}";r=0;t=${seconds}`,
      };
      return { status: 429, headers, body };
    }
    case "github":
      return {
        status: 403,
        headers: {
          ...json,
          "x-ratelimit-limit": String(limit),
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.ceil(resetAt / 1000)),
          "x-ratelimit-resource": name,
        },
        body: {
          message: "API rate limit exceeded.",
          documentation_url: "https://docs.github.com/rest",
        },
      };
    case "sep3304": {
      const data = { retryAfterMs: Math.max(0, resetAt - now), limit, remaining: 0 };
      const error = { code: -32023, message: "Rate limited", data };
      return {
        status: 429,
        headers: { ...json, "retry-after": String(seconds) },
        body: { jsonrpc: "2.0", id: null, error },
      };
    }
  }
}
