// Well-known key shapes, for redaction when the request's credentials are not known (openai,
// @anthropic-ai/sdk and Octokit mask theirs). Taken from a maintained secret-scanning rule set
// rather than a private list: gitleaks' default rules (github.com/gitleaks/gitleaks,
// config/gitleaks.toml, read at commit b58d3f1 of July 2026), each row under its gitleaks rule
// id, re-expressed for JavaScript (no inline `(?i)` groups in Node 20: such a part is written
// with both cases, which matches at least what the rule does). Rules that need a keyword in
// the context are covered by one generic rule below, after gitleaks' `generic-api-key`.
//
// A row is a literal prefix, by which a candidate is found cheaply, and the pattern past it,
// tried where that prefix starts a word (`\b`, as most rules and all of ours ask). A prefix that
// ends in `_` or `-` (`sk_live_`, `ghp_`, `xoxb-`) is tried wherever it stands: a key glued to a
// word before it is a token run only when it holds a digit, and its prefix alone tells it apart.
// Past its prefix a row matches at least what its rule does: for redaction, more is safe.

interface KeyShape {
  prefix: string;
  /** The pattern past `prefix` (sticky: tried where the prefix ends), shared by the row's prefixes. */
  rest: RegExp;
  /** Whether the prefix is tried inside a word too (it ends in `_` or `-`). */
  glued: boolean;
}

/**
 * The rows, each the prefixes of one rule (apart by a space) and the pattern past them, under
 * the rule's gitleaks id; our own rows, kept from before gitleaks', come first.
 */
const RULES: readonly (readonly [prefixes: string, rest: string])[] = [
  // own:stripe-openai-anthropic (Stripe, OpenAI and Anthropic keys cut short)
  [
    ["sk", "pk", "rk"]
      .flatMap((kind) =>
        ["-", "_"].flatMap((first) =>
          ["live", "test", "proj", "ant"].flatMap((env) =>
            ["-", "_"].map((second) => kind + first + env + second),
          ),
        ),
      )
      .join(" "),
    "[A-Za-z0-9_-]{8,}",
  ],
  ["ghp_ gho_ ghu_ ghs_ ghr_", "[A-Za-z0-9]{20,}"], // own:github-token
  ["github_pat_", "[A-Za-z0-9_]{20,}"], // own:github-pat
  ["xoxa- xoxb- xoxp- xoxo- xoxs- xoxr-", "[A-Za-z0-9-]{10,}"], // own:slack-token
  ["A3T AKIA ASIA ABIA ACCA", "[A-Z0-9]{16}(?![A-Z0-9])"], // aws-access-token
  ["sk-ant-api03-", "[\\w-]{20,}"], // anthropic-api-key
  ["sk-ant-admin01-", "[\\w-]{20,}"], // anthropic-admin-api-key
  ["sk-proj- sk-svcacct- sk-admin-", "[\\w-]{20,}"], // openai-api-key
  ["sk-", "[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}"], // openai-api-key
  ["sk_test_ sk_live_ sk_prod_ rk_test_ rk_live_ rk_prod_", "[A-Za-z0-9]{10,99}"], // stripe-access-token
  ["ghp_ gho_ ghu_ ghs_ ghr_", "[0-9A-Za-z]{36}"], // github-pat
  ["github_pat_", "\\w{82}"], // github-fine-grained-pat
  ["glpat- glptt- glrt- gldt- glft- glimt- gloas- glsoat- glcbt- glffct- glagent-", "[\\w-]{20,}"], // gitlab-pat
  ["xoxb- xoxa- xoxp- xoxo- xoxs- xoxr- xoxe- xoxe.xoxp-", "[0-9A-Za-z-]{10,}"], // slack-bot-token
  ["xapp-", "\\d-[A-Za-z0-9]+-\\d+-[A-Za-z0-9]+"], // slack-app-token
  ["hooks.slack.com/", "(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}"], // slack-webhook-url
  ["hf_", "[A-Za-z]{34}"], // huggingface-access-token
  ["api_org_", "[A-Za-z]{34}"], // huggingface-organization-api-token
  ["AIza", "[\\w-]{35}"], // gcp-api-key
  ["npm_", "[A-Za-z0-9]{36}"], // npm-access-token
  ["pypi-AgEIcHlwaS5vcmc", "[\\w-]{50,1000}"], // pypi-upload-token
  ["SG.", "[A-Za-z0-9=_.-]{66}"], // sendgrid-api-token
  ["SK", "[0-9a-fA-F]{32}"], // twilio-api-key
  ["shpat_ shpca_ shppa_ shpss_", "[a-fA-F0-9]{32}"], // shopify-access-token
  ["dop_v1_ doo_v1_ dor_v1_", "[a-f0-9]{64}"], // digitalocean-pat
  ["ntn_", "[0-9]{11}[A-Za-z0-9]{35}"], // notion-api-token
  ["pplx-", "[A-Za-z0-9]{48}"], // perplexity-api-key
  ["lin_api_", "[A-Za-z0-9]{40}"], // linear-api-key
  ["dapi", "[a-f0-9]{32}(?:-\\d)?"], // databricks-api-token
  ["dp.pt.", "[A-Za-z0-9]{43}"], // doppler-api-token
  ["PMAK-", "[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}"], // postman-api-token
  ["ATATT3", "[A-Za-z0-9_\\-=]{186}"], // atlassian-api-token
  ["HRKU-AA", "[0-9A-Za-z_-]{58}"], // heroku-api-key-v2
  ["glc_", "[A-Za-z0-9+/]{32,400}={0,3}"], // grafana-cloud-api-token
  ["glsa_", "[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"], // grafana-service-account-token
  ["sntryu_", "[a-f0-9]{64}"], // sentry-user-token
  ["sntrys_eyJpYXQiO", "[A-Za-z0-9+/=_]{40,}"], // sentry-org-token
  ["hvs.", "[\\w-]{90,120}"], // vault-service-token
  ["hvb.", "[\\w-]{138,300}"], // vault-batch-token
  ["AGE-SECRET-KEY-1", "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"], // age-secret-key
  ["ops_eyJ", "[A-Za-z0-9+/]{250,}={0,3}"], // 1password-service-account-token
  ["ey", "[A-Za-z0-9]{17,}\\.ey[A-Za-z0-9/\\\\_-]{17,}\\.(?:[A-Za-z0-9/\\\\_-]{10,}={0,2})?"], // jwt
];

/**
 * The rows' prefixes by their first two characters (as one number: no allocation), and a byte
 * per pair of (ASCII) characters saying whether some prefix starts with it, asked first. Built
 * on the first scan, not at import: fifty expressions to compile that most imports never use.
 */
interface ShapeIndex {
  byStart: Map<number, KeyShape[]>;
  pairs: Uint8Array;
}

let index: ShapeIndex | undefined;

function shapeIndex(): ShapeIndex {
  if (index !== undefined) return index;
  const byStart = new Map<number, KeyShape[]>();
  const pairs = new Uint8Array(128 * 128);
  // In the order of `RULES`.
  for (const [prefixes, source] of RULES) {
    const rest = new RegExp(source, "y");
    for (const prefix of prefixes.split(" ")) {
      const start = prefix.charCodeAt(0) * 65536 + prefix.charCodeAt(1);
      const rows = byStart.get(start) ?? [];
      rows.push({ prefix, rest, glued: prefix.length >= 4 && /[_-]$/.test(prefix) });
      byStart.set(start, rows);
      pairs[prefix.charCodeAt(0) * 128 + prefix.charCodeAt(1)] = 1;
    }
  }
  index = { byStart, pairs };
  return index;
}

// AWS secret access keys (40 characters of base64, AWS's documented form) standing alone: gitleaks
// finds them only beside a keyword; a `/` or `+` inside ends our other runs, so it is its own row.
const AWS_SECRET_LENGTH = 40;
const AWS_SECRET =
  /(?=[A-Za-z0-9/+]{0,39}[/+])(?=[A-Za-z0-9/+]{0,39}\d)(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/y;

// gitleaks' `generic-api-key`: a keyword, an assignment, then a value of high entropy.
const GENERIC =
  /(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)[\w.-]{0,20}[ \t'"]{0,3}(?:=>|=|:{1,3}=?|\?=)[\s'"`=]{0,5}([\w.=+/~-]{10,150})/gi;
/** gitleaks' `generic-api-key` entropy floor (Shannon, bits per character). */
const GENERIC_ENTROPY = 3.5;
// What `GENERIC` needs before its value: an assignment (`=`, `:`, `?=`) with at most three of
// `[ \t'"]` before it, and before those a run of `[\w.-]` whose last 30 characters (a keyword of
// up to 10 and 20 more) hold a keyword, in any ASCII case (non-Unicode `i` folds nothing else).
const KEYWORD = /access|auth|api|cred|key|passw|secret|token/i;
const MAX_KEY_SPACING = 3;
const KEY_WINDOW = 30;

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
/** `/` or `+`: an AWS secret holds one. */
const SLASH_PLUS = 256;
/** What a run must hold for a token run or an AWS secret to be in it: all three kinds. */
const MIXED = UPPER | LOWER | DIGIT;

const CLASS = new Uint16Array(128);
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
  if ("/+".includes(char)) flags |= SLASH_PLUS;
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
export function markKeyShapes(text: string, mark: (from: number, to: number) => void): void {
  // A run of SHORTEST_KEY or more holds one of every SHORTEST_KEY-th character: only those are
  // looked at first, and a run is measured only around one that is in a run.
  const length = text.length;
  let probe = SHORTEST_KEY - 1;
  while (probe < length) {
    if ((classOf(text, probe) & CANDIDATE) === 0) {
      probe += SHORTEST_KEY;
      continue;
    }
    // What the run holds (the kinds of character) is gathered on the way: it says which rules
    // can find anything in it.
    let kinds = classOf(text, probe);
    let start = probe;
    for (let flags = 0; start > 0; start -= 1) {
      flags = classOf(text, start - 1);
      if ((flags & CANDIDATE) === 0) break;
      kinds |= flags;
    }
    let end = probe + 1;
    for (let flags = 0; end < length; end += 1) {
      flags = classOf(text, end);
      if ((flags & CANDIDATE) === 0) break;
      kinds |= flags;
    }
    if (end - start >= SHORTEST_KEY) scanRun(text, start, end, kinds, mark);
    // The character at `end` is none of a run: the next run starts after it.
    probe = end + SHORTEST_KEY;
  }
  if (!mayAssignKey(text)) return;
  for (const match of text.matchAll(GENERIC)) {
    const value = match[1] as string;
    if (entropy(value) < GENERIC_ENTROPY) continue;
    const end = match.index + match[0].length;
    mark(end - value.length, end);
  }
}

/**
 * Whether `GENERIC` may match anywhere in `text`: some assignment has a keyword in the window
 * before it. Only a necessary condition, so the expression itself still decides, and it runs
 * only where it may find something (a property test holds it necessary).
 */
export function mayAssignKey(text: string): boolean {
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) {
    if (keyBefore(text, at)) return true;
  }
  for (let at = text.indexOf("="); at !== -1; at = text.indexOf("=", at + 1)) {
    // `?=` is an assignment that starts at its `?`.
    if (keyBefore(text, at) || (text.charCodeAt(at - 1) === 0x3f && keyBefore(text, at - 1))) {
      return true;
    }
  }
  return false;
}

/** Whether a keyword stands in the window before the assignment at `at`. */
function keyBefore(text: string, at: number): boolean {
  let end = at;
  while (end > 0 && at - end <= MAX_KEY_SPACING && isKeySpacing(text.charCodeAt(end - 1))) {
    end -= 1;
  }
  if (at - end > MAX_KEY_SPACING) return false;
  let start = end;
  while (start > 0 && end - start < KEY_WINDOW && isKeyNameChar(text, start - 1)) start -= 1;
  return end - start >= 3 && KEYWORD.test(text.slice(start, end));
}

/** `[ \t'"]`: what may stand between a key's name and its assignment. */
function isKeySpacing(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x27 || code === 0x22;
}

/** `[\w.-]`: a key name's characters. */
function isKeyNameChar(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 0x2e || code === 0x2d || (classOf(text, index) & WORD) !== 0;
}

/**
 * The token runs, hex runs and key shapes of one candidate run, `text[start, end)`, which holds
 * the kinds of character `kinds`. A token run and an AWS secret need upper case, lower case and
 * digits, a hex run a digit: a run without them (a URL's host and path, a word) is only looked
 * at for the key shapes, where a word starts.
 */
function scanRun(
  text: string,
  start: number,
  end: number,
  kinds: number,
  mark: (from: number, to: number) => void,
): void {
  const mixed = (kinds & MIXED) === MIXED && end - start >= SHORTEST_TOKEN_RUN;
  const hex = (kinds & DIGIT) !== 0 && end - start >= SHORTEST_HEX;
  if (!mixed && !hex) {
    // The character before the run is none of it, so no word character: a word starts there.
    let previous = 0;
    for (let j = start; j + 1 < end; j += 1) {
      const flags = classOf(text, j);
      markShapesAt(text, j, (previous & WORD) === 0, mark);
      previous = flags;
    }
    return;
  }
  const aws = mixed && (kinds & SLASH_PLUS) !== 0 && end - start >= AWS_SECRET_LENGTH;
  let tokenStart = start;
  let tokenKinds = 0;
  let hexStart = start;
  let hexKinds = 0;
  let previous = 0;
  for (let j = start; j <= end; j += 1) {
    const flags = j < end ? classOf(text, j) : 0;
    if ((flags & TOKEN) !== 0) tokenKinds |= flags & MIXED;
    else {
      if (j - tokenStart >= SHORTEST_TOKEN_RUN && tokenKinds === MIXED) mark(tokenStart, j);
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
    // A key starts a word (`\b`, as the rules ask), or stands glued by its prefix.
    const wordStarts = (previous & WORD) === 0;
    previous = flags;
    if (j + 1 >= end) continue;
    markShapesAt(text, j, wordStarts, mark);
    if (!wordStarts) continue;
    if (aws && end - j >= AWS_SECRET_LENGTH && (j === 0 || (classOf(text, j - 1) & BASE64) === 0)) {
      AWS_SECRET.lastIndex = j;
      if (AWS_SECRET.test(text)) mark(j, j + AWS_SECRET_LENGTH);
    }
  }
}

/**
 * The key shapes whose prefix stands at `j` (inside a run: `j` and `j + 1` are ASCII): every row
 * where a word starts, else the rows whose prefix may be glued to a word.
 */
function markShapesAt(
  text: string,
  j: number,
  wordStarts: boolean,
  mark: (from: number, to: number) => void,
): void {
  const first = text.charCodeAt(j);
  const second = text.charCodeAt(j + 1);
  const { byStart, pairs } = shapeIndex();
  if (pairs[first * 128 + second] !== 1) return;
  const rows = byStart.get(first * 65536 + second);
  if (rows === undefined) return;
  for (const { prefix, rest, glued } of rows) {
    if ((!wordStarts && !glued) || !text.startsWith(prefix, j)) continue;
    rest.lastIndex = j + prefix.length;
    if (rest.test(text)) mark(j, rest.lastIndex);
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
