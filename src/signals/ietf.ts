// IETF draft-ietf-httpapi-ratelimit-headers. Since draft-08 (through draft-11) a server sends
//   RateLimit-Policy: "burst";q=100;w=60, "daily";q=1000;w=86400
//   RateLimit: "burst";r=0;t=30
// both Structured Field Lists (RFC 9651): a policy name per item, `r` the remaining quota and
// `t` the seconds until it is restored. Draft-07 sent a Dictionary instead
// (`RateLimit: limit=100, remaining=0, reset=5`), and drafts up to 06 three separate fields,
// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`.

import type { HeaderReader } from "./headers.js";
import {
  type BareItem,
  type Member,
  parseDictionary,
  parseList,
  Token,
} from "./structured-fields.js";

/** The policy a throttled response names as used up, from the `RateLimit` field. */
export interface ExhaustedPolicy {
  /** The policy's name, when it has one. */
  readonly name?: string;
  /** Seconds until the quota is restored: its `t`, else the policy's window `w`. */
  readonly resetSeconds?: number;
}

/**
 * Picks the exhausted policy of the `RateLimit` field: the one with `r=0` that resets last; if
 * none reports `r=0`, the one with the least remaining. Malformed fields are ignored.
 */
export function exhaustedPolicy(headers: HeaderReader): ExhaustedPolicy | undefined {
  const field = headers.get("ratelimit");
  if (field === undefined) return undefined;
  // Every 429 of the same second carries the same field (`t` counts whole seconds): the last
  // one read is kept, with its answer, when that answer depends on the field alone.
  if (field === lastField) return lastPolicy;
  const [policy, alone] = policyOf(field, headers);
  if (alone) {
    lastField = field;
    lastPolicy = policy;
  }
  return policy;
}

let lastField: string | undefined;
let lastPolicy: ExhaustedPolicy | undefined;

/**
 * The exhausted policy of a `RateLimit` field, and whether the answer depends on the field alone
 * (not on `RateLimit-Policy`, read for a window when the policy has no `t`). Never remembered.
 */
export function policyOf(
  field: string,
  headers: HeaderReader,
): [policy: ExhaustedPolicy | undefined, alone: boolean] {
  const policies = simplePolicies(field) ?? policiesOf(parseList(field));
  if (policies !== undefined) return fromList(policies, headers);
  return [fromDraft07(field), true];
}

export interface Policy {
  name: string | undefined;
  remaining: number | undefined;
  reset: number | undefined;
}

export function policiesOf(items: readonly Member[] | undefined): Policy[] | undefined {
  if (items === undefined) return undefined;
  const policies: Policy[] = [];
  for (const [value, params] of items) {
    if (Array.isArray(value)) continue; // an inner list is no policy
    policies.push({
      name: policyName(value),
      remaining: nonNegativeInteger(params.get("r")),
      reset: nonNegativeInteger(params.get("t")),
    });
  }
  return policies;
}

// The form servers send (`"burst";r=0;t=30, "daily";r=900;t=40000`, or a token name), read
// without the full Structured Fields parser: a string without escapes or a token, then integer
// parameters (`;key=-?digits`, up to 15 digits), items apart by a comma and spaces or tabs.
// Anything else (escapes, other parameter types, inner lists) takes the full parser, which gives
// the same answer for this subset; read by one scan, which gives exactly the answers of the
// regular expression it replaced (property tests hold both).
const MAX_SIMPLE_ITEMS = 16;
const MAX_PARAMETER_DIGITS = 15;

const QUOTED = 1; // inside a string without escapes: printable ASCII but `"` and `\`
const TOKEN_START = 2;
const TOKEN = 4;
const KEY_START = 8;
const KEY = 16;
const DIGIT = 32;
const CHARS = new Uint8Array(128);
for (let code = 0x20; code < 0x7f; code += 1) {
  const char = String.fromCharCode(code);
  const alpha = /[A-Za-z]/.test(char);
  const digit = char >= "0" && char <= "9";
  let flags = 0;
  if (char !== '"' && char !== "\\") flags |= QUOTED;
  if (alpha || char === "*") flags |= TOKEN_START;
  if (alpha || digit || "!#$%&'*+-.^_`|~:/".includes(char)) flags |= TOKEN;
  if ((char >= "a" && char <= "z") || char === "*") flags |= KEY_START;
  if ((char >= "a" && char <= "z") || digit || "_-.*".includes(char)) flags |= KEY;
  if (digit) flags |= DIGIT;
  CHARS[code] = flags;
}

function charIs(field: string, index: number, flag: number): boolean {
  const code = field.charCodeAt(index);
  return code < 128 && ((CHARS[code] as number) & flag) !== 0;
}

function isBlank(field: string, index: number): boolean {
  const code = field.charCodeAt(index);
  return code === 0x20 || code === 0x09;
}

/**
 * A policy's name at `i`: a quoted string (empty means none) or a token, and where it ends;
 * `undefined` when neither stands there.
 */
function scanName(
  field: string,
  i: number,
  end: number,
): { name: string | undefined; next: number } | undefined {
  if (field.charCodeAt(i) === 0x22) {
    const from = i + 1;
    let at = from;
    while (at < end && charIs(field, at, QUOTED)) at += 1;
    if (at === end || field.charCodeAt(at) !== 0x22) return undefined;
    return { name: at === from ? undefined : field.slice(from, at), next: at + 1 };
  }
  if (i >= end || !charIs(field, i, TOKEN_START)) return undefined;
  let at = i + 1;
  while (at < end && charIs(field, at, TOKEN)) at += 1;
  return { name: field.slice(i, at), next: at };
}

/** The policies of a field in the simple form, or `undefined` to ask the full parser. */
export function simplePolicies(field: string): Policy[] | undefined {
  // The full parser drops spaces (not tabs) at either end, and wants something between.
  let start = 0;
  let end = field.length;
  while (start < end && field.charCodeAt(start) === 0x20) start += 1;
  while (end > start && field.charCodeAt(end - 1) === 0x20) end -= 1;
  if (start === end || field[start] === "\t" || field[end - 1] === "\t") return undefined;
  const policies: Policy[] = [];
  let i = start;
  while (i < end) {
    if (policies.length === MAX_SIMPLE_ITEMS) return undefined;
    while (i < end && isBlank(field, i)) i += 1;
    const item = scanName(field, i, end);
    if (item === undefined) return undefined;
    const name = item.name;
    i = item.next;
    let remaining: number | undefined;
    let reset: number | undefined;
    while (i < end && field.charCodeAt(i) === 0x3b) {
      const key = i + 1;
      if (key === end || !charIs(field, key, KEY_START)) return undefined;
      i = key + 1;
      while (i < end && charIs(field, i, KEY)) i += 1;
      const keyLength = i - key;
      if (i === end || field.charCodeAt(i) !== 0x3d) return undefined;
      i += 1;
      const negative = i < end && field.charCodeAt(i) === 0x2d;
      if (negative) i += 1;
      const digits = i;
      let value = 0;
      while (i < end && charIs(field, i, DIGIT)) {
        value = value * 10 + (field.charCodeAt(i) - 0x30);
        i += 1;
      }
      if (i === digits || i - digits > MAX_PARAMETER_DIGITS) return undefined;
      // Later parameters of the same key win, as in the full parser. Fifteen digits are exact
      // in a double; `-0` stays `-0`, as `Number("-0")` is.
      if (keyLength === 1) {
        const keyCode = field.charCodeAt(key);
        const number = negative ? -value : value;
        if (keyCode === 0x72) remaining = nonNegativeInteger(number);
        else if (keyCode === 0x74) reset = nonNegativeInteger(number);
      }
    }
    while (i < end && isBlank(field, i)) i += 1;
    if (i < end) {
      // A comma, and another item after it.
      if (field.charCodeAt(i) !== 0x2c || i + 1 === end) return undefined;
      i += 1;
    }
    policies.push({ name, remaining, reset });
  }
  return policies;
}

function fromList(
  policies: Policy[],
  headers: HeaderReader,
): [policy: ExhaustedPolicy | undefined, alone: boolean] {
  const chosen = policies.reduce<Policy | undefined>((best, policy) => {
    if (policy.remaining === undefined) return best;
    if (best?.remaining === undefined || policy.remaining < best.remaining) return policy;
    if (policy.remaining === best.remaining && (policy.reset ?? -1) > (best.reset ?? -1))
      return policy;
    return best;
  }, undefined);
  if (chosen === undefined) return [undefined, true];
  // Read-only by its type: a remembered answer is shared by the calls that hit it.
  const result: { name?: string; resetSeconds?: number } = {};
  if (chosen.name !== undefined) result.name = chosen.name;
  // Without `t`, the policy's window is a safe over-estimate of the wait.
  const reset = chosen.reset ?? policyWindow(headers, chosen.name);
  if (reset !== undefined) result.resetSeconds = reset;
  return [result, chosen.reset !== undefined || chosen.name === undefined];
}

/** The `w` of the named policy in `RateLimit-Policy`. */
function policyWindow(headers: HeaderReader, name: string | undefined): number | undefined {
  const field = headers.get("ratelimit-policy");
  if (field === undefined || name === undefined) return undefined;
  const items = parseList(field) ?? [];
  for (const [value, params] of items) {
    if (!Array.isArray(value) && policyName(value) === name)
      return nonNegativeInteger(params.get("w"));
  }
  return undefined;
}

function fromDraft07(field: string): ExhaustedPolicy | undefined {
  const dictionary = parseDictionary(field);
  const entry = dictionary?.get("reset");
  if (entry === undefined || Array.isArray(entry[0])) return undefined;
  const reset = nonNegativeInteger(entry[0]);
  return reset === undefined ? undefined : { resetSeconds: reset };
}

function policyName(value: BareItem): string | undefined {
  // Drafts 08 and 09 wrote the name as a Token, later ones as a String.
  if (typeof value === "string") return value === "" ? undefined : value;
  if (value instanceof Token) return value.toString();
  return undefined;
}

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Whether the `RateLimit` field names a policy whose quota is used up (`r=0`, or `remaining=0`). */
export function anyPolicySpent(headers: HeaderReader): boolean {
  const field = headers.get("ratelimit");
  if (field === undefined) return false;
  const items = parseList(field);
  if (items !== undefined) {
    return items.some(([value, params]) => !Array.isArray(value) && params.get("r") === 0);
  }
  const remaining = parseDictionary(field)?.get("remaining")?.[0];
  return remaining === 0;
}
