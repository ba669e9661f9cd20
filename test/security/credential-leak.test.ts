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

describe("SDKs whose errors carry no credential: anything shaped like a key is cut", () => {
  const KEY_SHAPED = "sk-proj-Zq7Kp2Lm9Xw4Rt6Yv8Bn3Cd5Fg1Hj0";

  /** Answers as OpenAI does (`{ error: { message } }`), echoing the key it was sent. */
  async function echoingKey() {
    upstream = await startServer((req, res) => {
      const auth = String(req.headers.authorization ?? req.headers["x-api-key"] ?? "");
      const message = `Rate limit reached for key ${auth.replace(/^(Bearer|token)\s+/i, "")}`;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "20" });
      res.end(JSON.stringify({ message, error: { message, type: "requests" } }));
    });
    return upstream.url;
  }

  it.each([
    [
      "openai",
      async (url: string) => {
        const { default: OpenAI } = await import("openai");
        await new OpenAI({ apiKey: KEY_SHAPED, baseURL: url, maxRetries: 0 }).models.list();
      },
    ],
    [
      "@anthropic-ai/sdk",
      async (url: string) => {
        const { default: Anthropic } = await import("@anthropic-ai/sdk");
        await new Anthropic({ apiKey: KEY_SHAPED, baseURL: url, maxRetries: 0 }).models.list();
      },
    ],
    [
      "Octokit",
      async (url: string) => {
        const { Octokit } = await import("@octokit/rest");
        await new Octokit({
          auth: KEY_SHAPED,
          baseUrl: url,
          request: { retries: 0 },
          log: { debug() {}, info() {}, warn() {}, error() {} },
        }).request("GET /x");
      },
    ],
  ])("%s", async (_name, call) => {
    const url = await echoingKey();
    const tool = withUpstreamThrottle(async () => {
      await call(url);
      return { content: [] };
    });
    const result = await tool();
    expect(parseRateLimitedResult(result)?.message).toMatch(
      /^Rate limit reached for key \[(redacted|…)\]$/,
    );
    expectNoPieceOf(JSON.stringify(result), [KEY_SHAPED]);
  });

  it("a key of no telling shape, named with the credentials option", async () => {
    const plainKey = "plainlowercasekey";
    const url = await echoingKey();
    const tool = withUpstreamThrottle(
      async () => {
        const { default: OpenAI } = await import("openai");
        await new OpenAI({ apiKey: plainKey, baseURL: url, maxRetries: 0 }).models.list();
        return { content: [] };
      },
      { credentials: [plainKey] },
    );
    const result = await tool();
    expect(parseRateLimitedResult(result)?.message).toBe("Rate limit reached for key [redacted]");
    expectNoPieceOf(JSON.stringify(result), [plainKey]);
  });
});

describe("a credential echoed in another spelling is still cut", () => {
  const spell = (every: number, separator: string) =>
    KEY.match(new RegExp(`.{1,${every}}`, "g"))?.join(separator) ?? KEY;
  it.each([
    ["base64", Buffer.from(KEY).toString("base64")],
    ["base64url", Buffer.from(KEY).toString("base64url")],
    ["hex", Buffer.from(KEY).toString("hex")],
    ["HTML character references", [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join("")],
    [
      "JSON \\u escapes left in a text body",
      [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
    ],
    [
      "full-width letters",
      [...KEY]
        .map((c) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
        .join(""),
    ],
    ["a space every 5 characters", spell(5, " ")],
    ["a dash every 4 characters", spell(4, "-")],
    ["a line separator every 5 characters", spell(5, "\u2028")],
    ["a zero-width space between every character", [...KEY].join("\u200B")],
  ])("%s", async (_name, echoed) => {
    const url = await echoing(() => `key ${echoed} over quota`);
    const throttle = await throttleOf(
      throttledFetch()(`${url}/v1`, { headers: { "x-api-key": KEY } }),
    );
    expect(throttle.upstreamMessage).toMatch(/^key \[(redacted|…)\] over quota$/);
  });
});

describe("credentials under the names APIs really use", () => {
  it.each([
    ["?appid= (OpenWeatherMap)", "/v1?appid=owm0123456789abcd", {}],
    ["?code= (OAuth)", "/callback?code=oauthcode0123456", {}],
    ["?pwd=", "/login?pwd=hunter2hunter2", {}],
    ["?jwt=", "/v1?jwt=jwtvalue0123456", {}],
    ["x-pass", "/v1", { "x-pass": "passvalue0123456" }],
    ["x-access", "/v1", { "x-access": "accessvalue01234" }],
    ["x-honeycomb-team (issue 17 item 6)", "/v1", { "x-honeycomb-team": "honeycombkeylowercase" }],
    ["x-jfrog-art-api", "/v1", { "x-jfrog-art-api": "jfrogkeyalllowercase" }],
    ["x-bearer", "/v1", { "x-bearer": "bearerkeyalllowercase" }],
  ] as [string, string, Record<string, string>][])("%s", async (_name, path, headers) => {
    const value = new URL(path, "http://x").search.split("=")[1] ?? Object.values(headers)[0] ?? "";
    const url = await echoing(() => `throttled: ${value}`);
    const throttle = await throttleOf(throttledFetch()(`${url}${path}`, { headers }));
    expectNoPieceOf(exposedText(throttle), [value]);
  });

  it("a query string in a relative URL is cut, even from an otherwise plain line", () => {
    const signal = detectThrottle({
      status: 429,
      headers: {},
      body: { message: "Too many calls to /v1/search?q=secretstuff now" },
    });
    expect(signal?.message).toBe("Too many calls to /v1/search now");
  });

  it("a query string in a relative URL is cut from the message", () => {
    const signal = detectThrottle({
      status: 429,
      headers: {},
      body: {
        message: "Too many calls to /v1/search?q=alice%27s+record&user=alice@example.com now",
      },
    });
    expect(signal?.message).toBe("Too many calls to /v1/search now");
  });
});

describe("the `credentials` option on every wrapper (issue 17 item 5)", () => {
  const BODY_KEY = "plainbodykeywithnoshape";
  /** An upstream that echoes the POST body's key in its limit name and its message. */
  async function echoingBody() {
    upstream = await startServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const key = (JSON.parse(body) as { key: string }).key;
        res.writeHead(429, {
          "content-type": "application/json",
          "retry-after": "30",
          "x-ratelimit-resource": key,
        });
        res.end(JSON.stringify({ message: `Quota exhausted for key ${key}` }));
      });
    });
    return upstream.url;
  }
  const post = { method: "POST", body: JSON.stringify({ key: BODY_KEY }) };

  it("throttledFetch: a key sent in a POST body and echoed back", async () => {
    const url = await echoingBody();
    const throttle = await throttleOf(throttledFetch({ credentials: [BODY_KEY] })(url, post));
    expect(throttle.limit).toBe("127.0.0.1");
    expect(throttle.upstreamMessage).toBe("Quota exhausted for key [redacted]");
    expectNoPieceOf(exposedText(throttle), [BODY_KEY]);
  });

  it("throttleInterceptor: the same", async () => {
    const url = await echoingBody();
    const { Agent, request } = await import("undici");
    const agent = new Agent();
    try {
      const dispatcher = agent.compose(throttleInterceptor({ credentials: [BODY_KEY] }));
      const throttle = await throttleOf(request(url, { ...post, dispatcher }));
      expect(throttle.limit).toBe("127.0.0.1");
      expectNoPieceOf(exposedText(throttle), [BODY_KEY]);
    } finally {
      await agent.close();
    }
  });

  it("withUpstreamThrottle applies them to an UpstreamRateLimitedError thrown inside", async () => {
    const url = await echoingBody();
    const tool = withUpstreamThrottle(
      async () => {
        await throttledFetch()(url, post);
        return { content: [] };
      },
      { credentials: [BODY_KEY] },
    );
    const result = await tool();
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "127.0.0.1",
      message: "Quota exhausted for key [redacted]",
    });
    expectNoPieceOf(JSON.stringify(result), [BODY_KEY]);
  });

  it("rejects a `credentials` option that is no list of strings, naming it", () => {
    expect(() => throttledFetch({ credentials: "key" as never })).toThrow(/`credentials`/);
    expect(() => throttleInterceptor({ credentials: [5] as never })).toThrow(/`credentials`/);
  });
});

describe("well-known key shapes, when the request's credentials are not known (issue 17 item 6)", () => {
  // Shapes of the gitleaks rules (or AWS's documented form), values made up for the test.
  it.each([
    ["an AWS secret access key (its / inside)", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
    [
      "a Slack webhook path",
      "https://hooks.slack.com/services/T0ABCDEFGH/B0ABCDEFGH/abcdefghijklmnopqrstuvwx",
    ],
    ["a lowercase-only token after a keyword", "api_key=qwmzpxnvlkjtrhgfdsaybc"],
    ["an hf_ token without digits", "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"],
    ["a GitLab token", "glpat-abcdefghij0123456789"],
    ["a Google API key", "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234"],
    ["an npm token", "npm_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["a SendGrid key", `SG.${"a1B2c3D4e5".repeat(6)}abcdef`],
  ])("%s is cut from the message", (_name, secret) => {
    const signal = detectThrottle({
      status: 429,
      headers: {},
      body: { message: `Rate limit hit for ${secret} please wait` },
    });
    const value = secret.split(/=|services\//).at(-1) ?? secret;
    expectNoPieceOf(signal?.message ?? "", [value]);
    expect(signal?.message).toContain("please wait");
  });

  it("keeps an ordinary message whole", () => {
    const message =
      "Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.";
    expect(
      detectThrottle({ status: 429, headers: {}, body: { error: { message } } })?.message,
    ).toBe(message);
  });
});

describe("query strings of relative URLs are cut whatever their first character (issue 17 item 4)", () => {
  it.each([
    ["?;sig=", "/v1/files?;sig=s1gnaturevalue0 now"],
    ["?@token=", "/v1/files?@token=t0kenvalue0123 now"],
    ["?filter[api_key]=", "/v1/files?filter[api_key]=k3yvalue01234 now"],
    ["/v1?=", "/v1?=bareval0123456 now"],
    [
      "a redaction mark before the rest of the query",
      "/v1/files?AKIAABCDEFGHIJKLMNOP&X-Amz-Credential=AKIAABCDEFGHIJKLMNOP%2F20260101 now",
    ],
  ])("%s", (_name, tail) => {
    const signal = detectThrottle({
      status: 429,
      headers: {},
      body: { message: `Too many calls to ${tail}` },
    });
    expect(signal?.message).toMatch(/^Too many calls to \/v1(?:\/files)? now$/);
  });

  it("keeps a question that is no query", () => {
    const signal = detectThrottle({
      status: 429,
      headers: {},
      body: { message: "Slow down? Try again in a minute." },
    });
    expect(signal?.message).toBe("Slow down? Try again in a minute.");
  });
});
