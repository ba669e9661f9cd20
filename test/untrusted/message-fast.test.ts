// The cheaper paths of the message door (issue 23) are proven equal to what they replaced: the
// plain-line fast path of cleanMessage gives exactly what the cleaner gave before it (kept whole
// in ./oracles/message.ts), and the pre-check before gitleaks' generic-api-key expression never
// says no where the expression finds something.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markKeyShapes, mayAssignKey } from "../../src/untrusted/key-patterns.js";
import { cleanMessage } from "../../src/untrusted/message.js";
import { SecretMatcher } from "../../src/untrusted/secrets.js";
import { markKeyShapesBefore } from "./oracles/key-patterns.js";
import { cleanMessageBefore } from "./oracles/message.js";

const credentialArb = fc.stringMatching(/^[A-Za-z0-9_\-.~+/= ]{6,30}$/);

/** Messages made of what upstreams write, what the cleaner cuts, and anything at all. */
/** Runs shaped like the start of a well-known key, cut at any length (a Slack token is 15). */
const keyishArb = fc
  .tuple(
    fc.constantFrom(
      "xoxb-",
      "xoxp-",
      "ghp_",
      "sk-proj-",
      "sk_live_",
      "AKIA",
      "hf_",
      "SK",
      "ey",
      "glpat-",
    ),
    fc.stringMatching(/^[A-Za-z0-9_-]{0,44}$/),
    fc.constantFrom("", " ", ".", "/", "=", "!"),
  )
  .map((parts) => parts.join(""));

/**
 * Runs of the characters a key is made of, with and without digits, `/` or `+`: what decides
 * which rules can find anything in a run (a URL's path holds no digit, an AWS secret a `/`).
 */
const runArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_\-+=~/.]{10,60}$/),
  fc.stringMatching(/^[a-z/.-]{10,60}$/),
  fc.stringMatching(/^[A-Za-z/+]{30,50}$/),
  fc.stringMatching(/^[0-9a-f]{28,40}$/),
);

const piecesArb = (credential: string) =>
  fc.oneof(
    keyishArb,
    runArb,
    fc.string({ unit: "binary-ascii", maxLength: 20 }),
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.constant(credential),
    fc.constant(credential.toUpperCase()),
    fc.constantFrom(
      " ",
      "  ",
      "Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): ",
      "Visit https://platform.openai.com/account/rate-limits to learn more.",
      "https://",
      "//",
      "@",
      "?",
      "#",
      "&amp;",
      "\\u0041",
      "=",
      ":",
      "api_key=",
      "token: ",
      "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx",
      "a0B1c2D3e4F5g6H7i8J9k",
      "0123456789abcdef0123456789abcdef",
      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "hooks.slack.com/services/",
      "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
      "[redacted]",
      "…",
      "\u200b",
    ),
  );

const caseArb = credentialArb.chain((credential) =>
  fc.record({
    credential: fc.constant(credential),
    known: fc.boolean(),
    message: fc.array(piecesArb(credential), { maxLength: 10 }).map((parts) => parts.join("")),
  }),
);

describe("cleanMessage's plain-line fast path", () => {
  it("gives exactly what the cleaner gave before it, for any message and credentials", () => {
    fc.assert(
      fc.property(caseArb, ({ credential, known, message }) => {
        const secrets = known ? new SecretMatcher([credential]) : SecretMatcher.EMPTY;
        expect(cleanMessage(message, secrets)).toBe(cleanMessageBefore(message, secrets));
      }),
      { numRuns: 5000 },
    );
  });

  it("decodes JSON's \\u escapes and leaves an upper-case \\U as the text it is", () => {
    expect(cleanMessage("Slow down \\u0041PI")).toBe("Slow down API");
    expect(cleanMessage("path C:\\Users\\U0000 here")).toBe("path C:\\Users\\U0000 here");
  });

  it("redacts a plain line and cuts it to 256 code points, as before", () => {
    const key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
    const message = `Incorrect API key provided: ${key}. See https://platform.openai.com/account`;
    expect(cleanMessage(message)).toBe(
      "Incorrect API key provided: [redacted]. See https://platform.openai.com/account",
    );
    const long = "word ".repeat(100).trim();
    expect(cleanMessage(long)).toBe(cleanMessageBefore(long));
    expect([...(cleanMessage(long) ?? "")].length).toBeLessThanOrEqual(256);
    expect(cleanMessage(long)?.endsWith("…")).toBe(true);
  });
});

describe("markKeyShapes with its runs found by the expression engine", () => {
  const coverage = (scan: typeof markKeyShapes, text: string) => {
    const covered = new Uint8Array(text.length);
    scan(text, (from, to) => covered.fill(1, from, to));
    return [...covered].join("");
  };

  it("marks exactly what the character loop it replaced marked, for any text", () => {
    fc.assert(
      fc.property(
        caseArb.map(({ message }) => message),
        (text) => {
          expect(coverage(markKeyShapes, text)).toBe(coverage(markKeyShapesBefore, text));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe("the pre-check of the generic key-assignment rule", () => {
  // gitleaks' generic-api-key, as src/untrusted/key-patterns.ts runs it.
  const GENERIC =
    /(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)[\w.-]{0,20}[ \t'"]{0,3}(?:=>|=|:{1,3}=?|\?=)[\s'"`=]{0,5}([\w.=+/~-]{10,150})/gi;
  const assignmentArb = fc
    .tuple(
      fc.string({ unit: "binary-ascii", maxLength: 6 }),
      fc.constantFrom(
        "access",
        "AUTH",
        "Api",
        "credential",
        "creds",
        "key",
        "passwd",
        "PassWord",
        "secret",
        "token",
        "tok",
        "ap",
      ),
      // Up to the expression's 20 characters after the keyword, and past them.
      fc.oneof(fc.stringMatching(/^[\w.-]{0,6}$/), fc.stringMatching(/^[\w.-]{17,22}$/)),
      fc.stringMatching(/^[ \t'"]{0,5}$/),
      fc.constantFrom("=>", "=", ":", "::", ":::=", "?=", "?", " ="),
      fc.stringMatching(/^[\s'"`=]{0,6}$/),
      fc.stringMatching(/^[\w.=+/~-]{0,20}$/),
      fc.string({ unit: "binary-ascii", maxLength: 6 }),
    )
    .map((parts) => parts.join(""));

  it("never says no where the expression finds a match", () => {
    fc.assert(
      fc.property(
        fc.oneof(assignmentArb, fc.string({ unit: "binary-ascii", maxLength: 60 })),
        (text) => {
          GENERIC.lastIndex = 0;
          if (GENERIC.test(text)) expect(mayAssignKey(text), text).toBe(true);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it("says no for messages with no assignment of a key", () => {
    expect(mayAssignKey("Rate limit reached (RPM): Limit 500. Visit https://x.example/a")).toBe(
      false,
    );
    expect(mayAssignKey("api_key=AbCdEf0123456789")).toBe(true);
    expect(mayAssignKey('token  "  : abc')).toBe(false);
  });
});
