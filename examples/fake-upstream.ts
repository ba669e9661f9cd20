// A small rate-limited search API on node:http: a fixed-window limiter per path that answers
// 429 with Retry-After, the common X-RateLimit-* / RateLimit-* headers and a JSON message.
// The demo and the integration tests run it on 127.0.0.1, port 0.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface WindowLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

export interface FakeUpstreamOptions {
  /** Limits by path; paths not listed are unlimited. @default { "/search": { limit: 5, windowMs: 60_000 } } */
  limits?: Record<string, WindowLimit>;
  /** Extra headers on every 429 (e.g. a Set-Cookie, to prove it never leaks). */
  throttleHeaders?: Record<string, string>;
  /** The clock. @default Date.now */
  now?: () => number;
}

export interface FakeUpstream {
  url: string;
  /** Requests seen, by path. */
  requests: Map<string, number>;
  /** The request headers of the last request, for tests. */
  lastRequestHeaders: IncomingMessage["headers"] | undefined;
  close(): Promise<void>;
}

const THROTTLE_MESSAGE = "This endpoint has been requested too many times. Try again later.";

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const limits = options.limits ?? { "/search": { limit: 5, windowMs: 60_000 } };
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  const requests = new Map<string, number>();
  const upstream: Partial<FakeUpstream> = {};

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://upstream.invalid");
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    upstream.lastRequestHeaders = req.headers;
    const rule = limits[url.pathname];
    if (rule !== undefined) {
      const at = now();
      let window = windows.get(url.pathname);
      if (window === undefined || at - window.start >= rule.windowMs) {
        window = { start: at, count: 0 };
        windows.set(url.pathname, window);
      }
      window.count += 1;
      const resetMs = window.start + rule.windowMs - at;
      const remaining = Math.max(0, rule.limit - window.count);
      const quota = {
        "x-ratelimit-limit": String(rule.limit),
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": String(Math.ceil((window.start + rule.windowMs) / 1000)),
        "ratelimit-limit": String(rule.limit),
        "ratelimit-remaining": String(remaining),
      };
      if (window.count > rule.limit) {
        res.writeHead(429, {
          ...quota,
          ...options.throttleHeaders,
          "content-type": "application/json",
          "retry-after": String(Math.ceil(resetMs / 1000)),
        });
        res.end(JSON.stringify({ message: THROTTLE_MESSAGE }));
        return;
      }
      res.writeHead(200, { ...quota, "content-type": "application/json" });
    } else {
      res.writeHead(200, { "content-type": "application/json" });
    }
    const query = url.searchParams.get("q") ?? "";
    res.end(
      JSON.stringify({ query, hits: [`${query} — first result`, `${query} — second result`] }),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(upstream, {
    url: `http://127.0.0.1:${port}`,
    requests,
    lastRequestHeaders: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeUpstream;
}
