// The properties design §8 promises, for any upstream answer: no piece (6+ characters) of any
// request credential in the result, the thrown error's message or the store; every limit name
// an identifier; every message well-formed, visible, one line, at most 256 code points. Driven
// through the real wrappers (throttledFetch, throttleInterceptor, the vendor path), with the
// network replaced by the generated answer.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  DEFAULT_RATE_LIMITED_MESSAGE,
  isUpstreamRateLimitedError,
  throttledFetch,
  throttleInterceptor,
  toUpstreamRateLimitedError,
  type UpstreamRateLimitedError,
} from "../../src/index.js";
import { pieces } from "./helpers.js";

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;
const REMOVED = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

const credentialArb = fc.stringMatching(/^[A-Za-z0-9_\-.~+/=]{8,40}$/);

/** Ways an upstream may echo a credential: whole, cut, re-cased, URL-encoded, padded. */
const echoArb = (credential: string) =>
  fc.oneof(
    fc.constant(credential),
    fc.constant(credential.toUpperCase()),
    fc.constant(encodeURIComponent(credential)),
    fc
      .nat({ max: credential.length - 6 })
      .map((start) => credential.slice(start, start + 6 + (start % 5))),
    fc.string({ unit: "binary", maxLength: 40 }),
  );

const answerArb = (credential: string) =>
  fc.record({
    status: fc.constantFrom(429, 403, 400),
    limitName: fc.option(fc.oneof(echoArb(credential), fc.constantFrom("core", "search"))),
    retryAfter: fc.option(fc.oneof(fc.nat({ max: 100_000 }).map(String), fc.string())),
    message: fc
      .array(
        fc.oneof(
          echoArb(credential),
          fc.string({ unit: "binary", maxLength: 300 }),
          fc.constantFrom(
            " https://api.example.com/v1?api_key=",
            "//x.example/?t=",
            " rate limit exceeded ",
          ),
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join("")),
    json: fc.boolean(),
  });

type Answer = {
  status: number;
  limitName: string | null;
  retryAfter: string | null;
  message: string;
  json: boolean;
};

function headersOf(answer: Answer): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": answer.json ? "application/json" : "text/plain",
  };
  const safe = (text: string) => text.replace(/[^\t\x20-\x7e]/g, "").trim();
  if (answer.limitName !== null) headers["x-ratelimit-resource"] = safe(answer.limitName);
  if (answer.retryAfter !== null) headers["retry-after"] = safe(answer.retryAfter);
  headers["x-ratelimit-remaining"] = "0";
  return headers;
}

const bodyOf = (answer: Answer) =>
  answer.json ? JSON.stringify({ message: answer.message }) : answer.message;

/** Where the credential travels in the request. */
const placementArb = fc.constantFrom("bearer", "x-api-key", "query", "cookie", "basic");

function requestWith(
  placement: string,
  credential: string,
): { url: string; headers: Record<string, string> } {
  const base = "http://127.0.0.1:9/v1";
  switch (placement) {
    case "bearer":
      return { url: base, headers: { authorization: `Bearer ${credential}` } };
    case "x-api-key":
      return { url: base, headers: { "x-api-key": credential } };
    case "query":
      return { url: `${base}?api_key=${encodeURIComponent(credential)}`, headers: {} };
    case "cookie":
      return { url: base, headers: { cookie: `theme=dark; session=${credential}` } };
    default:
      return { url: base, headers: { authorization: `Basic ${btoa(`alice:${credential}`)}` } };
  }
}

/**
 * Checks every string the upstream had a say in: the limit name and message in the result, the
 * error and the store. (The library's own words — field names, the default message — are not
 * the upstream's, and a random credential may share six letters with them.)
 */
function checkExposed(throttle: UpstreamRateLimitedError, credential: string, written: string[]) {
  const result = throttle.toToolResult();
  const error = result.structuredContent?.error;
  const stored = written
    .filter((text) => text.startsWith("{"))
    .map((text) => JSON.parse(text) as Partial<CooldownEntry>)
    .map(
      (entry) => `${entry.limitSource === "upstream" ? entry.limit : ""} ${entry.message ?? ""}`,
    );
  const fromUpstream = [
    throttle.limitSource === "upstream" ? throttle.limit : "",
    throttle.upstreamMessage ?? "",
    error?.message === DEFAULT_RATE_LIMITED_MESSAGE ? "" : (error?.message ?? ""),
    ...stored,
  ]
    .join("\n")
    .toLowerCase();
  for (const piece of pieces(credential)) expect(fromUpstream).not.toContain(piece);
  expect(result.content[0].text.startsWith(`Rate limited by ${throttle.limit}.`)).toBe(true);
  expect(throttle.limit).toMatch(IDENTIFIER);
  const message = error?.message ?? "";
  expect(REMOVED.test(message)).toBe(false);
  expect([...message].length).toBeLessThanOrEqual(256);
}

const recordingStore = (written: string[]): CooldownStore => ({
  shared: false,
  get: () => undefined,
  set: (key: string, entry: CooldownEntry) => void written.push(key, JSON.stringify(entry)),
});

describe("for any upstream answer, nothing of a credential gets through", () => {
  it("throttledFetch (with a cooldown store)", async () => {
    await fc.assert(
      fc.asyncProperty(
        credentialArb.chain((credential) =>
          fc.tuple(fc.constant(credential), placementArb, answerArb(credential)),
        ),
        async ([credential, placement, answer]) => {
          const { url, headers } = requestWith(placement, credential);
          const written: string[] = [];
          const api = throttledFetch({
            cooldown: { store: recordingStore(written) },
            fetch: async () =>
              new Response(bodyOf(answer), { status: answer.status, headers: headersOf(answer) }),
          });
          const outcome = await api(url, { headers }).catch((error: unknown) => error);
          if (isUpstreamRateLimitedError(outcome)) checkExposed(outcome, credential, written);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("throttleInterceptor (driven through undici's handler protocol)", async () => {
    await fc.assert(
      fc.asyncProperty(
        credentialArb.chain((credential) =>
          fc.tuple(fc.constant(credential), placementArb, answerArb(credential)),
        ),
        async ([credential, placement, answer]) => {
          const { url, headers } = requestWith(placement, credential);
          const target = new URL(url);
          const failure = await new Promise<unknown>((resolve) => {
            const dispatch = throttleInterceptor()((_opts, handler) => {
              const controller = {
                abort: (reason: Error) => handler.onResponseError(controller, reason),
                pause() {},
                resume() {},
                aborted: false,
              };
              handler.onRequestStart(controller, {});
              handler.onResponseStart(controller, answer.status, headersOf(answer), "");
              handler.onResponseData(controller, new TextEncoder().encode(bodyOf(answer)));
              handler.onResponseEnd(controller, {});
              return true;
            });
            dispatch(
              {
                origin: target.origin,
                path: `${target.pathname}${target.search}`,
                method: "GET",
                headers,
              },
              {
                onRequestStart() {},
                onResponseStart() {},
                onResponseData() {},
                onResponseEnd: () => resolve(undefined),
                onResponseError: (_controller: unknown, error: unknown) => resolve(error),
              },
            );
          });
          if (isUpstreamRateLimitedError(failure)) checkExposed(failure, credential, []);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the vendor-SDK path (an axios-shaped error carrying its request)", () => {
    fc.assert(
      fc.property(
        credentialArb.chain((credential) =>
          fc.tuple(fc.constant(credential), placementArb, answerArb(credential)),
        ),
        ([credential, placement, answer]) => {
          const { url, headers } = requestWith(placement, credential);
          const throttle = toUpstreamRateLimitedError({
            message: "Request failed",
            config: { url, headers },
            response: { status: answer.status, headers: headersOf(answer), data: bodyOf(answer) },
          });
          if (throttle !== undefined) checkExposed(throttle, credential, []);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the one-pass scanners find what the regular expressions they replaced found (issue 23)", () => {
  const textArb = fc
    .array(
      fc.oneof(
        fc.string({ unit: "binary-ascii", maxLength: 30 }),
        fc.constantFrom(
          "https://",
          "//",
          "@",
          "?",
          "#",
          "=",
          " ",
          "/",
          "user:pw@",
          "a0B1c2D3e4F5g6H7i8J9k",
          "0123456789abcdef0123456789abcdef",
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));

  it("cutting URLs: exactly the old replacement", async () => {
    const { cleanMessage } = await import("../../src/untrusted/message.js");
    const OLD_URL = /((?:\b[a-z][a-z0-9+.-]{0,31}:)?\/\/)(?:[^\s/?#]*@)?([^\s?#]*)(?:[?#]\S*)?/gi;
    fc.assert(
      fc.property(textArb, (text) => {
        // Plain, visible ASCII with no credential shape and no JSON `\u` escape (decoded, and a
        // decoded control character dropped): the URL cut is all that changes it.
        const input = text
          .replace(/[^\x20-\x7e]/g, " ")
          .replace(/[A-Za-z0-9]{15,}/g, "w")
          .replace(/\\u/g, "/u");
        const expected = input
          .replace(OLD_URL, "$1$2")
          .replace(/[?#]\S*/g, (run) => (run.includes("=") ? "" : run))
          .replace(/\s+/g, " ")
          .trim();
        const cleaned = cleanMessage(input);
        if (expected.length <= 256) expect(cleaned ?? "").toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("shapes: every token run and hex key the old expressions marked is still marked", async () => {
    const { markKeyShapes } = await import("../../src/untrusted/key-patterns.js");
    const OLD = [/[A-Za-z0-9_\-+=~]{20,}/g, /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{32,}\b/gi];
    fc.assert(
      fc.property(textArb, (text) => {
        const marked = new Uint8Array(text.length);
        markKeyShapes(text, (from, to) => marked.fill(1, from, to));
        for (const [index, pattern] of OLD.entries()) {
          for (const match of text.matchAll(pattern)) {
            const run = match[0];
            if (index === 0 && !(/[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run)))
              continue;
            for (let i = match.index; i < match.index + run.length; i += 1)
              expect(marked[i], `${run} in ${text}`).toBe(1);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the new doors of issue 17: hosts, relayed limits, bodies", () => {
  const labelArb = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);

  it("a host holding a piece of the credential never names a limit; one that passes is a clean identifier-like host", async () => {
    const { cleanHost } = await import("../../src/untrusted/limit-name.js");
    const { Credentials } = await import("../../src/untrusted/credentials.js");
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{8,30}$/),
        fc.array(labelArb, { minLength: 1, maxLength: 5 }),
        fc.nat({ max: 5 }),
        (credential, labels, at) => {
          const credentials = new Credentials();
          credentials.token("known", credential);
          const host = [...labels.slice(0, at), credential, ...labels.slice(at), "test"].join(".");
          expect(cleanHost(host, credentials.matcher())).toBeUndefined();
          const clean = cleanHost([...labels, "test"].join("."), credentials.matcher());
          if (clean !== undefined)
            for (const piece of pieces(credential)) expect(clean).not.toContain(piece);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a relayed limit reaches events as a clean identifier, or as unnamed-limit", async () => {
    const { eventLimitName } = await import("../../src/untrusted/limit-name.js");
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.stringMatching(/^[A-Za-z0-9]{16,30}$/),
        (text, key) => {
          const name = eventLimitName(`${text}sk_live_${key}`);
          expect(name === "unnamed-limit" || IDENTIFIER.test(name)).toBe(true);
          expect(name.includes(`sk_live_${key}`)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("only a body fetch reads anew counts as one a retry may send again", async () => {
    const { isReplayableBody } = await import("../../src/wrappers/fetch.js");
    const { Readable } = await import("node:stream");
    const replayable = fc.oneof(
      fc.string(),
      fc.uint8Array().map((bytes) => bytes),
      fc.uint8Array().map((bytes) => bytes.buffer),
      fc.string().map((text) => new Blob([text])),
      fc.string().map((text) => new URLSearchParams({ q: text })),
    );
    const spent = fc.oneof(
      fc.string().map((text) => new Blob([text]).stream()),
      fc.string().map((text) => Readable.from([text])),
      fc.string().map((text) =>
        (async function* () {
          yield text;
        })(),
      ),
      fc.object(),
    );
    fc.assert(
      fc.property(replayable, (body) => {
        expect(isReplayableBody(body)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(spent, (body) => {
        expect(isReplayableBody(body)).toBe(false);
      }),
    );
  });
});
