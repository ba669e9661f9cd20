// Attack: the upstream echoes the request's credentials into its message, hoping they reach the
// model. Redaction must come before any cut, match every form of the credential (case, URL
// encoding, a decoded Basic password, a token in the path), and cover the vendor-SDK path.

import axios from "axios";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  detectThrottle,
  parseRateLimitedResult,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { expectNoPieceOf, exposedText, throttleOf, undiciCaller } from "./helpers.js";

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** An upstream that throttles with a message built from the request it got. */
async function echoing(message: (url: URL, headers: Record<string, unknown>) => string) {
  upstream = await startServer((req, res) => {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ message: message(new URL(req.url ?? "/", "http://x"), req.headers) }));
  });
  return upstream.url;
}

const KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

const echoes: [
  string,
  string,
  Record<string, string>,
  (url: URL, h: Record<string, unknown>) => string,
][] = [
  [
    "a key straddling the 256-character cut",
    "/v1",
    { authorization: `Bearer ${KEY}` },
    () => `${"x".repeat(240)} Key: ${KEY} is over its quota`,
  ],
  ["an upper-cased echo", "/v1", { "x-api-key": KEY }, () => `key ${KEY.toUpperCase()} throttled`],
  [
    "a URL-encoded echo",
    `/v1?api_key=${encodeURIComponent("k+/=y")}${KEY}`,
    {},
    (url) => `for ${encodeURIComponent(url.searchParams.get("api_key") ?? "")}`,
  ],
  [
    "a decoded Basic password",
    "/v1",
    { authorization: basic("alice", "correct-horse-battery-staple") },
    () => "user alice with password correct-horse-battery-staple is throttled",
  ],
  [
    "a token in the URL path",
    `/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage`,
    {},
    (url) => `Too many requests for ${url.pathname}`,
  ],
  [
    "half a key, cut by the upstream itself",
    "/v1",
    { "x-goog-api-key": KEY },
    () => `key ${KEY.slice(0, 14)}… is throttled`,
  ],
  [
    "a cookie value",
    "/v1",
    { cookie: "theme=dark; session=s3ss10n-t0k3n-value-42" },
    () => "session s3ss10n-t0k3n-value-42 throttled",
  ],
];

const secretsOf = (path: string, headers: Record<string, string>) => [
  KEY,
  "correct-horse-battery-staple",
  "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
  "s3ss10n-t0k3n-value-42",
  ...Object.values(headers).filter((value) => value.startsWith("sk_")),
  ...(path.includes("api_key") ? [`k+/=y${KEY}`] : []),
];

describe("credentials echoed in the upstream's message never reach the result", () => {
  it.each(echoes)("throttledFetch: %s", async (_name, path, headers, message) => {
    const url = await echoing(message);
    const written: string[] = [];
    const store: CooldownStore = {
      shared: false,
      get: () => undefined,
      set: (key: string, entry: CooldownEntry) => void written.push(key, JSON.stringify(entry)),
    };
    const throttle = await throttleOf(
      throttledFetch({ cooldown: { store } })(`${url}${path}`, { headers }),
    );
    expect(throttle.upstreamMessage).toContain("[redacted"); // the marker itself may be cut
    expectNoPieceOf(exposedText(throttle), secretsOf(path, headers));
    expectNoPieceOf(written.join("\n"), secretsOf(path, headers));
  });

  it.each(echoes)("throttleInterceptor: %s", async (_name, path, headers, message) => {
    const url = await echoing(message);
    const caller = undiciCaller(throttleInterceptor());
    try {
      const throttle = await throttleOf(caller.call(`${url}${path}`, headers));
      expect(throttle.upstreamMessage).toContain("[redacted"); // the marker itself may be cut
      expectNoPieceOf(exposedText(throttle), secretsOf(path, headers));
    } finally {
      await caller.close();
    }
  });
});

describe("the vendor-SDK path redacts the credentials the error carries", () => {
  it("axios: a key in config.headers and config.params, echoed by the upstream", async () => {
    const url = await echoing(
      (_u, h) => `Rate limit exceeded for API key ${String(h["x-api-key"])}`,
    );
    const tool = withUpstreamThrottle(async () => {
      await axios.get(`${url}/v1`, {
        headers: { "x-api-key": KEY },
        params: { token: "QueryToken123456" },
      });
      return { content: [] };
    });
    const result = await tool();
    const error = parseRateLimitedResult(result);
    expect(error?.message).toBe("Rate limit exceeded for API key [redacted]");
    expectNoPieceOf(JSON.stringify(result), [KEY, "QueryToken123456"]);
  });

  it("a Basic password in axios' config.auth", async () => {
    const url = await echoing(() => "password hunter2hunter2 is rate limited");
    const tool = withUpstreamThrottle(async () => {
      await axios.get(`${url}/v1`, { auth: { username: "alice", password: "hunter2hunter2" } });
      return { content: [] };
    });
    expectNoPieceOf(JSON.stringify(await tool()), ["hunter2hunter2"]);
  });
});

describe("URLs in a message keep only scheme, host and path", () => {
  it.each([
    [
      "a protocol-relative URL",
      "see //api.example.com/v1?token=abc123secret",
      "see //api.example.com/v1",
    ],
    [
      "a WebSocket URL",
      "reconnect to wss://stream.example.com/feed?token=abc123secret later",
      "reconnect to wss://stream.example.com/feed later",
    ],
    [
      "userinfo in an FTP URL",
      "mirror ftp://user:pa55w0rd@files.example.com/pub is busy",
      "mirror ftp://files.example.com/pub is busy",
    ],
    [
      "a fragment",
      "docs at https://example.com/rate#key=abc123secret",
      "docs at https://example.com/rate",
    ],
  ])("%s", (_name, message, expected) => {
    const signal = detectThrottle({ status: 429, headers: {}, body: { message } });
    expect(signal?.message).toBe(expected);
  });

  it("redacts what detectThrottle is told are the request's credentials", () => {
    const signal = detectThrottle(
      { status: 429, headers: {}, body: { message: `KEY ${KEY.toUpperCase()} throttled` } },
      { credentials: [KEY] },
    );
    expect(signal?.message).toBe("KEY [redacted] throttled");
  });
});
