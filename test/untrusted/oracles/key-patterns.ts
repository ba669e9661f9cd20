// Test-only oracle: src/untrusted/key-patterns.ts as it stood before issue 23 made its scans
// native (the candidate runs, the generic rule's pre-check), kept whole so that
// test/untrusted/message-fast.test.ts can hold the new one equal to it. Not used by the library.
//
// Well-known key shapes, for redaction when the request's credentials are not known (openai,
// @anthropic-ai/sdk and Octokit mask theirs). Taken from a maintained secret-scanning rule set
// rather than a private list: gitleaks' default rules (github.com/gitleaks/gitleaks,
// config/gitleaks.toml, read at commit b58d3f1 of July 2026), each row under its gitleaks rule
// id, re-expressed for JavaScript (no inline `(?i)` groups in Node 20: such a part is written
// with both cases, which matches at least what the rule does). Rules that need a keyword in
// the context are covered by one generic rule below, after gitleaks' `generic-api-key`.
//
// A row is a literal prefix, by which a candidate is found cheaply, and the whole pattern,
// tried where that prefix starts a word (`\b`, as most rules and all of ours ask), and wherever
// it stands for a prefix that ends in `_` or `-` (a key glued to a word before it). Past its
// prefix a row matches at least what its rule does: for redaction, more is safe.

interface KeyShape {
  /** The gitleaks rule id. */
  id: string;
  prefix: string;
  /** The pattern from `prefix` on (sticky: tried where the prefix stands). */
  pattern: RegExp;
}

const shape = (id: string, prefix: string, pattern: string): KeyShape => ({
  id,
  prefix,
  pattern: new RegExp(pattern, "y"),
});

/** Our own rows, kept from before gitleaks': Stripe, OpenAI and Anthropic keys cut short. */
const OWN: KeyShape[] = [];
for (const kind of ["sk", "pk", "rk"])
  for (const first of ["-", "_"])
    for (const env of ["live", "test", "proj", "ant"])
      for (const second of ["-", "_"]) {
        const prefix = `${kind}${first}${env}${second}`;
        OWN.push(shape("own:stripe-openai-anthropic", prefix, `${prefix}[A-Za-z0-9_-]{8,}`));
      }
for (const prefix of ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])
  OWN.push(shape("own:github-token", prefix, `${prefix}[A-Za-z0-9]{20,}`));
OWN.push(shape("own:github-pat", "github_pat_", "github_pat_[A-Za-z0-9_]{20,}"));
for (const prefix of ["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"])
  OWN.push(shape("own:slack-token", prefix, `${prefix}[A-Za-z0-9-]{10,}`));

const SHAPES: readonly KeyShape[] = [
  ...OWN,
  ...["A3T", "AKIA", "ASIA", "ABIA", "ACCA"].map((prefix) =>
    shape("aws-access-token", prefix, `${prefix}[A-Z0-9]{16}(?![A-Z0-9])`),
  ),
  shape("anthropic-api-key", "sk-ant-api03-", "sk-ant-api03-[\\w-]{20,}"),
  shape("anthropic-admin-api-key", "sk-ant-admin01-", "sk-ant-admin01-[\\w-]{20,}"),
  shape("openai-api-key", "sk-proj-", "sk-proj-[\\w-]{20,}"),
  shape("openai-api-key", "sk-svcacct-", "sk-svcacct-[\\w-]{20,}"),
  shape("openai-api-key", "sk-admin-", "sk-admin-[\\w-]{20,}"),
  shape("openai-api-key", "sk-", "sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}"),
  ...["sk_test_", "sk_live_", "sk_prod_", "rk_test_", "rk_live_", "rk_prod_"].map((prefix) =>
    shape("stripe-access-token", prefix, `${prefix}[A-Za-z0-9]{10,99}`),
  ),
  ...["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].map((prefix) =>
    shape("github-pat", prefix, `${prefix}[0-9A-Za-z]{36}`),
  ),
  shape("github-fine-grained-pat", "github_pat_", "github_pat_\\w{82}"),
  ...[
    "glpat-",
    "glptt-",
    "glrt-",
    "gldt-",
    "glft-",
    "glimt-",
    "gloas-",
    "glsoat-",
    "glcbt-",
    "glffct-",
    "glagent-",
  ].map((prefix) => shape("gitlab-pat", prefix, `${prefix}[\\w-]{20,}`)),
  ...["xoxb-", "xoxa-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.xoxp-"].map((prefix) =>
    shape("slack-bot-token", prefix, `${prefix}[0-9A-Za-z-]{10,}`),
  ),
  shape("slack-app-token", "xapp-", "xapp-\\d-[A-Za-z0-9]+-\\d+-[A-Za-z0-9]+"),
  shape(
    "slack-webhook-url",
    "hooks.slack.com/",
    "hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}",
  ),
  shape("huggingface-access-token", "hf_", "hf_[A-Za-z]{34}"),
  shape("huggingface-organization-api-token", "api_org_", "api_org_[A-Za-z]{34}"),
  shape("gcp-api-key", "AIza", "AIza[\\w-]{35}"),
  shape("npm-access-token", "npm_", "npm_[A-Za-z0-9]{36}"),
  shape("pypi-upload-token", "pypi-AgEIcHlwaS5vcmc", "pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}"),
  shape("sendgrid-api-token", "SG.", "SG\\.[A-Za-z0-9=_.-]{66}"),
  shape("twilio-api-key", "SK", "SK[0-9a-fA-F]{32}"),
  ...["shpat_", "shpca_", "shppa_", "shpss_"].map((prefix) =>
    shape("shopify-access-token", prefix, `${prefix}[a-fA-F0-9]{32}`),
  ),
  ...["dop_v1_", "doo_v1_", "dor_v1_"].map((prefix) =>
    shape("digitalocean-pat", prefix, `${prefix}[a-f0-9]{64}`),
  ),
  shape("notion-api-token", "ntn_", "ntn_[0-9]{11}[A-Za-z0-9]{35}"),
  shape("perplexity-api-key", "pplx-", "pplx-[A-Za-z0-9]{48}"),
  shape("linear-api-key", "lin_api_", "lin_api_[A-Za-z0-9]{40}"),
  shape("databricks-api-token", "dapi", "dapi[a-f0-9]{32}(?:-\\d)?"),
  shape("doppler-api-token", "dp.pt.", "dp\\.pt\\.[A-Za-z0-9]{43}"),
  shape("postman-api-token", "PMAK-", "PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}"),
  shape("atlassian-api-token", "ATATT3", "ATATT3[A-Za-z0-9_\\-=]{186}"),
  shape("heroku-api-key-v2", "HRKU-AA", "HRKU-AA[0-9A-Za-z_-]{58}"),
  shape("grafana-cloud-api-token", "glc_", "glc_[A-Za-z0-9+/]{32,400}={0,3}"),
  shape("grafana-service-account-token", "glsa_", "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
  shape("sentry-user-token", "sntryu_", "sntryu_[a-f0-9]{64}"),
  shape("sentry-org-token", "sntrys_eyJpYXQiO", "sntrys_eyJpYXQiO[A-Za-z0-9+/=_]{40,}"),
  shape("vault-service-token", "hvs.", "hvs\\.[\\w-]{90,120}"),
  shape("vault-batch-token", "hvb.", "hvb\\.[\\w-]{138,300}"),
  shape(
    "age-secret-key",
    "AGE-SECRET-KEY-1",
    "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
  ),
  shape("1password-service-account-token", "ops_eyJ", "ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
  shape(
    "jwt",
    "ey",
    "ey[A-Za-z0-9]{17,}\\.ey[A-Za-z0-9/\\\\_-]{17,}\\.(?:[A-Za-z0-9/\\\\_-]{10,}={0,2})?",
  ),
];

/** The shapes by the first two characters of their prefix (as one number: no allocation). */
const BY_START = new Map<number, KeyShape[]>();
for (const row of SHAPES) {
  const start = row.prefix.charCodeAt(0) * 65536 + row.prefix.charCodeAt(1);
  const rows = BY_START.get(start) ?? [];
  rows.push(row);
  BY_START.set(start, rows);
}

// AWS secret access keys (40 characters of base64, AWS's documented form) standing alone: gitleaks
// finds them only beside a keyword; a `/` or `+` inside ends our other runs, so it is its own row.
const AWS_SECRET =
  /(?=[A-Za-z0-9/+]{0,39}[/+])(?=[A-Za-z0-9/+]{0,39}\d)(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/y;

// gitleaks' `generic-api-key`: a keyword, an assignment, then a value of high entropy.
const GENERIC =
  /(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)[\w.-]{0,20}[ \t'"]{0,3}(?:=>|=|:{1,3}=?|\?=)[\s'"`=]{0,5}([\w.=+/~-]{10,150})/gi;
/** gitleaks' `generic-api-key` entropy floor (Shannon, bits per character). */
const GENERIC_ENTROPY = 3.5;
const HAS_ASSIGNMENT = /[=:]/;

/** The shortest run that may hold a key: a Slack token (15). */
const SHORTEST_KEY = 15;
/** Token runs (API keys, bearer tokens, each part of a JWT): 20+ with all three kinds of character. */
const SHORTEST_TOKEN_RUN = 20;
const SHORTEST_HEX = 32;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
/** In a token run (letters, digits, `_-+=~`). */
const TOKEN = 8;
/** In a candidate run: a token character, `/` or `.` (a webhook's host and path). */
const CANDIDATE = 16;
/** A hex digit. */
const HEX = 32;
/** A word character (`\w`). */
const WORD = 64;
/** In base64 (`A-Za-z0-9/+=`), what may stand before an AWS secret. */
const BASE64 = 128;

const CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) {
  const char = String.fromCharCode(code);
  let flags = 0;
  if (char >= "A" && char <= "Z") flags |= UPPER | TOKEN | CANDIDATE | WORD | BASE64;
  if (char >= "a" && char <= "z") flags |= LOWER | TOKEN | CANDIDATE | WORD | BASE64;
  if (char >= "0" && char <= "9") flags |= DIGIT | TOKEN | CANDIDATE | WORD | BASE64 | HEX;
  if (/[a-fA-F]/.test(char)) flags |= HEX;
  if (char === "_") flags |= TOKEN | CANDIDATE | WORD;
  if ("-+=~".includes(char)) flags |= TOKEN | CANDIDATE;
  if ("/.".includes(char)) flags |= CANDIDATE;
  if ("/+=".includes(char)) flags |= BASE64;
  CLASS[code] = flags;
}

const classOf = (text: string, index: number): number => {
  const code = text.charCodeAt(index);
  return code < 128 ? (CLASS[code] as number) : 0;
};

/**
 * Calls `mark(from, to)` for everything in `text` shaped like a credential: token runs of 20+
 * characters mixing upper case, lower case and digits (`/` and `.` end one, so a URL's path is
 * not taken for a token); 32+ hex digits standing as a word, with a digit and a letter; the
 * well-known key shapes; an AWS secret key; a keyword-assigned value of high entropy. One pass
 * over the text finds the runs; the shapes are tried only inside runs long enough to hold one.
 */
export function markKeyShapesBefore(text: string, mark: (from: number, to: number) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    if ((classOf(text, i) & CANDIDATE) === 0) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < length && (classOf(text, i) & CANDIDATE) !== 0) i += 1;
    if (i - start >= SHORTEST_KEY) scanRun(text, start, i, mark);
  }
  if (!HAS_ASSIGNMENT.test(text)) return;
  for (const match of text.matchAll(GENERIC)) {
    const value = match[1] as string;
    if (entropy(value) < GENERIC_ENTROPY) continue;
    const end = match.index + match[0].length;
    mark(end - value.length, end);
  }
}

/** The token runs, hex runs and key shapes of one candidate run, `text[start, end)`. */
function scanRun(
  text: string,
  start: number,
  end: number,
  mark: (from: number, to: number) => void,
): void {
  let tokenStart = start;
  let tokenKinds = 0;
  let hexStart = start;
  let hexKinds = 0;
  for (let j = start; j <= end; j += 1) {
    const flags = j < end ? classOf(text, j) : 0;
    if ((flags & TOKEN) !== 0) tokenKinds |= flags & (UPPER | LOWER | DIGIT);
    else {
      if (j - tokenStart >= SHORTEST_TOKEN_RUN && tokenKinds === (UPPER | LOWER | DIGIT))
        mark(tokenStart, j);
      tokenStart = j + 1;
      tokenKinds = 0;
    }
    if ((flags & HEX) !== 0) hexKinds |= flags & DIGIT ? DIGIT : LOWER;
    else {
      // A word of hex: no word character on either side (`\b[0-9a-f]{32,}\b`).
      if (
        j - hexStart >= SHORTEST_HEX &&
        hexKinds === (DIGIT | LOWER) &&
        (flags & WORD) === 0 &&
        (hexStart === 0 || (classOf(text, hexStart - 1) & WORD) === 0)
      )
        mark(hexStart, j);
      hexStart = j + 1;
      hexKinds = 0;
    }
    // A key starts a word (`\b`, as the rules ask), or stands glued by a prefix ending in _ or -.
    if (j + 1 >= end) continue;
    const wordStarts = j === 0 || (classOf(text, j - 1) & WORD) === 0;
    const rows = BY_START.get(text.charCodeAt(j) * 65536 + text.charCodeAt(j + 1));
    if (rows !== undefined) {
      for (const row of rows) {
        const glued = row.prefix.length >= 4 && /[_-]$/.test(row.prefix);
        if ((!wordStarts && !glued) || !text.startsWith(row.prefix, j)) continue;
        row.pattern.lastIndex = j;
        const found = row.pattern.exec(text);
        if (found !== null) mark(j, j + found[0].length);
      }
    }
    if (!wordStarts) continue;
    if (end - j >= 40 && (j === 0 || (classOf(text, j - 1) & BASE64) === 0)) {
      AWS_SECRET.lastIndex = j;
      if (AWS_SECRET.test(text)) mark(j, j + 40);
    }
  }
}

/** Shannon entropy of `text`, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
