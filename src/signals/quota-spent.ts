// Pre-emption (opt-in): a *successful* response that says the quota is spent —
// GitHub's `x-ratelimit-remaining: 0` with `x-ratelimit-reset`, documented as "do not make
// requests until the reset" — is read for the wait, so a cooldown can answer the next call
// locally instead of spending a request that will be refused. Only what the upstream said is
// used: its reset, its name for the limit; never its message (the response is no error).

import { DelayContext } from "./delay.js";
import { type DetectSettings, isExhausted, signalFrom, type ThrottleSignal } from "./detect.js";
import {
  ANTHROPIC_FIELDS,
  FAMILY_FIELDS,
  OPENAI_FIELDS,
  RATELIMIT,
  ZENDESK_FIELDS,
} from "./fields.js";
import { type HeaderInput, type HeaderReader, readHeaders } from "./headers.js";
import { anyPolicySpent } from "./ietf.js";
import { familyExhausted } from "./quota-families.js";
import { ANTHROPIC_QUOTAS, OPENAI_QUOTAS, zendeskExhausted } from "./vendor-resets.js";

const VENDOR_QUOTAS = [...OPENAI_QUOTAS, ...ANTHROPIC_QUOTAS];

/** Whether any quota header of the response says a quota is used up. */
function anySpent(headers: HeaderReader): boolean {
  const fields = headers.fields;
  if (isExhausted(headers)) return true;
  if ((fields & (OPENAI_FIELDS | ANTHROPIC_FIELDS)) !== 0) {
    for (const quota of VENDOR_QUOTAS) {
      if (headers.get(quota.remaining)?.trim() === "0") return true;
    }
  }
  if ((fields & RATELIMIT.bit) !== 0 && anyPolicySpent(headers)) return true;
  if ((fields & ZENDESK_FIELDS) !== 0 && zendeskExhausted(headers) !== undefined) return true;
  return (fields & FAMILY_FIELDS) !== 0 && familyExhausted(headers);
}

/**
 * The wait a successful response announces by a spent quota and its reset, or `undefined`
 * when no quota is spent or no reset is given. `settings` is asked for only when a quota is
 * spent (it gathers the request's credentials). Never throws.
 */
export function quotaSpent(
  response: { status: number; headers: HeaderInput },
  settings: () => DetectSettings,
  nowMs: number = Date.now(),
): ThrottleSignal | undefined {
  try {
    const headers = readHeaders(response.headers);
    // The cheap question first: most successful responses have quota left.
    if (!anySpent(headers)) return undefined;
    const context = new DelayContext(headers, undefined, nowMs);
    const signal = signalFrom(response.status, context, settings(), undefined);
    // A spent quota with no reset says nothing about how long to wait: nothing is remembered.
    if (signal.retryAfterMs === undefined || signal.retryAfterMs === 0) return undefined;
    return signal;
  } catch {
    return undefined;
  }
}
