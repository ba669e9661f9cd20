// Which of the rate-limit fields the rules read a response holds, as bits: worked out once per
// response while its field names are read (they are read anyway, to see whether any needs folding
// to lower case), so that a rule whose fields are absent is skipped without asking for them. Most
// responses hold two or three of the forty names the rules know. A bit says a field *may* be
// there: a reader that cannot list its names (a Headers-like object) says all of them may.

/** A field the rules read by name, and its bit in `HeaderReader.fields`. */
export interface Field {
  readonly name: string;
  readonly bit: number;
}

const field = (name: string, bit: number): Field => ({ name, bit });

export const RETRY_AFTER_MS = field("retry-after-ms", 1 << 0);
export const MS_RETRY_AFTER_MS = field("x-ms-retry-after-ms", 1 << 1);
export const RETRY_AFTER = field("retry-after", 1 << 2);
export const RATELIMIT = field("ratelimit", 1 << 3);
export const RATELIMIT_POLICY = field("ratelimit-policy", 1 << 4);
export const RATELIMIT_RESET = field("ratelimit-reset", 1 << 5);
export const RATELIMIT_REMAINING = field("ratelimit-remaining", 1 << 6);
export const X_RATELIMIT_RESET = field("x-ratelimit-reset", 1 << 7);
export const X_RATELIMIT_REMAINING = field("x-ratelimit-remaining", 1 << 8);
export const X_RATE_LIMIT_RESET = field("x-rate-limit-reset", 1 << 9);
export const X_RATE_LIMIT_REMAINING = field("x-rate-limit-remaining", 1 << 10);
export const RESET_AFTER = field("x-ratelimit-reset-after", 1 << 11);
export const DATE = field("date", 1 << 12);
export const RESOURCE = field("x-ratelimit-resource", 1 << 13);
export const RATELIMIT_NAME = field("ratelimit-name", 1 << 14);
export const STRIPE_REASON = field("stripe-rate-limited-reason", 1 << 15);
export const RATELIMIT_REASON = field("ratelimit-reason", 1 << 16);
export const AMZN_ERROR_TYPE = field("x-amzn-errortype", 1 << 17);

/** OpenAI's `x-ratelimit-{remaining,reset}-{requests,tokens}`. */
export const OPENAI_FIELDS = 1 << 18;
/** Anthropic's `anthropic-ratelimit-…`. */
export const ANTHROPIC_FIELDS = 1 << 19;
/** Names of the `x-…-ratelimit-…` families (Linear, Sentry, HubSpot), by a test looser than theirs. */
export const FAMILY_FIELDS = 1 << 20;
/** Zendesk's endpoint quotas, `zendesk-ratelimit-<endpoint>`. */
export const ZENDESK_FIELDS = 1 << 21;

/** Every bit: what a reader that cannot list its names says. */
export const ALL_FIELDS = (1 << 22) - 1;
/** Not a field: the name has upper case, so the reader must fold the names first. */
export const UPPER_CASE = 1 << 30;

const KNOWN = new Map<string, number>(
  [
    RETRY_AFTER_MS,
    MS_RETRY_AFTER_MS,
    RETRY_AFTER,
    RATELIMIT,
    RATELIMIT_POLICY,
    RATELIMIT_RESET,
    RATELIMIT_REMAINING,
    X_RATELIMIT_RESET,
    X_RATELIMIT_REMAINING,
    X_RATE_LIMIT_RESET,
    X_RATE_LIMIT_REMAINING,
    RESET_AFTER,
    DATE,
    RESOURCE,
    RATELIMIT_NAME,
    STRIPE_REASON,
    RATELIMIT_REASON,
    AMZN_ERROR_TYPE,
  ].map(({ name, bit }) => [name, bit]),
);

/** The bits of a lowercase field name. */
function bitsOf(name: string): number {
  let bits = KNOWN.get(name) ?? 0;
  if (name.startsWith("x-ratelimit-remaining-") || name.startsWith("x-ratelimit-reset-"))
    bits |= OPENAI_FIELDS;
  if (name.startsWith("anthropic-ratelimit-")) bits |= ANTHROPIC_FIELDS;
  if (name.startsWith("x-") && (name.includes("ratelimit") || name.includes("rate-limit")))
    bits |= FAMILY_FIELDS;
  if (name.startsWith("zendesk-ratelimit-")) bits |= ZENDESK_FIELDS;
  return bits;
}

// Senders repeat a few dozen names: each name's bits are remembered (bounded, cleared when full),
// and a lookup costs less than the case conversion it saves.
const NAMES = new Map<string, number>();
const MAX_NAMES = 512;
const MAX_REMEMBERED_NAME = 64;

/** The bits of a field name as sent, with `UPPER_CASE` when lower-casing would change it. */
export function nameBits(name: string): number {
  const known = NAMES.get(name);
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  const bits = lower === name ? bitsOf(name) : UPPER_CASE;
  if (name.length <= MAX_REMEMBERED_NAME) {
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    NAMES.set(name, bits);
  }
  return bits;
}
