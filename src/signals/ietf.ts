// IETF draft-ietf-httpapi-ratelimit-headers. Since draft-08 (through draft-11) a server sends
//   RateLimit-Policy: "burst";q=100;w=60, "daily";q=1000;w=86400
//   RateLimit: "burst";r=0;t=30
// both Structured Field Lists (RFC 9651): a policy name per item, `r` the remaining quota and
// `t` the seconds until it is restored. Draft-07 sent a Dictionary instead
// (`RateLimit: limit=100, remaining=0, reset=5`), and drafts up to 06 three separate fields,
// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`.

import { type BareItem, parseDictionary, parseList, Token } from "structured-headers";
import type { HeaderReader } from "./headers.js";

/** The policy a throttled response names as used up, from the `RateLimit` field. */
export interface ExhaustedPolicy {
  /** The policy's name, when it has one. */
  name?: string;
  /** Seconds until the quota is restored: its `t`, else the policy's window `w`. */
  resetSeconds?: number;
}

/**
 * Picks the exhausted policy of the `RateLimit` field: the one with `r=0` that resets last; if
 * none reports `r=0`, the one with the least remaining. Malformed fields are ignored.
 */
export function exhaustedPolicy(headers: HeaderReader): ExhaustedPolicy | undefined {
  const field = headers.get("ratelimit");
  if (field === undefined) return undefined;
  const policies = simplePolicies(field) ?? policiesOf(tryParse(() => parseList(field)));
  if (policies !== undefined) return fromList(policies, headers);
  return fromDraft07(field);
}

export interface Policy {
  name: string | undefined;
  remaining: number | undefined;
  reset: number | undefined;
}

/** A member of a parsed Structured Field List: its value and parameters (typed here, so the
 * declarations need no `structured-headers` types). */
type ListMember = readonly [value: unknown, params: { get(key: string): unknown }];

export function policiesOf(items: readonly ListMember[] | undefined): Policy[] | undefined {
  if (items === undefined) return undefined;
  const policies: Policy[] = [];
  for (const [value, params] of items) {
    if (Array.isArray(value)) continue; // an inner list is no policy
    policies.push({
      name: policyName(value as BareItem),
      remaining: nonNegativeInteger(params.get("r")),
      reset: nonNegativeInteger(params.get("t")),
    });
  }
  return policies;
}

// The form servers send (`"burst";r=0;t=30, "daily";r=900;t=40000`, or a token name), read
// without the full Structured Fields parser: a string without escapes or a token, then integer
// parameters. Anything else (escapes, other parameter types, inner lists) takes the full parser,
// which gives the same answer for this subset (test/signals/ietf-fast.test.ts).
const SIMPLE_ITEM =
  /[ \t]*(?:"([\x20\x21\x23-\x5b\x5d-\x7e]*)"|([A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*))((?:;[a-z*][a-z0-9_\-.*]*=-?\d{1,15})*)[ \t]*(,|$)/y;
const MAX_SIMPLE_ITEMS = 16;

/** The policies of a field in the simple form, or `undefined` to ask the full parser. */
export function simplePolicies(field: string): Policy[] | undefined {
  // The full parser drops spaces (not tabs) at either end, and wants something between.
  let start = 0;
  let end = field.length;
  while (start < end && field.charCodeAt(start) === 0x20) start += 1;
  while (end > start && field.charCodeAt(end - 1) === 0x20) end -= 1;
  if (start === end || field[start] === "\t" || field[end - 1] === "\t") return undefined;
  const text = end === field.length ? field : field.slice(0, end);
  const policies: Policy[] = [];
  SIMPLE_ITEM.lastIndex = start;
  while (SIMPLE_ITEM.lastIndex < text.length) {
    const match = SIMPLE_ITEM.exec(text);
    if (match === null || policies.length === MAX_SIMPLE_ITEMS) return undefined;
    // A comma must be followed by another item.
    if (match[4] === "," && SIMPLE_ITEM.lastIndex === text.length) return undefined;
    let remaining: number | undefined;
    let reset: number | undefined;
    const params = match[3] ?? "";
    if (params !== "") {
      for (const param of params.slice(1).split(";")) {
        const equals = param.indexOf("=");
        const key = param.slice(0, equals);
        // Later parameters of the same key win, as in the full parser.
        if (key === "r") remaining = nonNegativeInteger(Number(param.slice(equals + 1)));
        else if (key === "t") reset = nonNegativeInteger(Number(param.slice(equals + 1)));
      }
    }
    const name = match[1] ?? match[2];
    policies.push({ name: name === "" ? undefined : name, remaining, reset });
  }
  return policies;
}

function fromList(policies: Policy[], headers: HeaderReader): ExhaustedPolicy | undefined {
  const chosen = policies.reduce<Policy | undefined>((best, policy) => {
    if (policy.remaining === undefined) return best;
    if (best?.remaining === undefined || policy.remaining < best.remaining) return policy;
    if (policy.remaining === best.remaining && (policy.reset ?? -1) > (best.reset ?? -1))
      return policy;
    return best;
  }, undefined);
  if (chosen === undefined) return undefined;
  const result: ExhaustedPolicy = {};
  if (chosen.name !== undefined) result.name = chosen.name;
  // Without `t`, the policy's window is a safe over-estimate of the wait.
  const reset = chosen.reset ?? policyWindow(headers, chosen.name);
  if (reset !== undefined) result.resetSeconds = reset;
  return result;
}

/** The `w` of the named policy in `RateLimit-Policy`. */
function policyWindow(headers: HeaderReader, name: string | undefined): number | undefined {
  const field = headers.get("ratelimit-policy");
  if (field === undefined || name === undefined) return undefined;
  const items = tryParse(() => parseList(field)) ?? [];
  for (const [value, params] of items) {
    if (!Array.isArray(value) && policyName(value) === name)
      return nonNegativeInteger(params.get("w"));
  }
  return undefined;
}

function fromDraft07(field: string): ExhaustedPolicy | undefined {
  const dictionary = tryParse(() => parseDictionary(field));
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

function tryParse<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** Whether the `RateLimit` field names a policy whose quota is used up (`r=0`, or `remaining=0`). */
export function anyPolicySpent(headers: HeaderReader): boolean {
  const field = headers.get("ratelimit");
  if (field === undefined) return false;
  const items = tryParse(() => parseList(field));
  if (items !== undefined) {
    return items.some(([value, params]) => !Array.isArray(value) && params.get("r") === 0);
  }
  const remaining = tryParse(() => parseDictionary(field))?.get("remaining")?.[0];
  return remaining === 0;
}
