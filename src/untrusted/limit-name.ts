// The one door for a limit name an upstream offers (the untrusted-data rules, docs/security.md):
// `x-ratelimit-resource`, `RateLimit-Name`, an IETF policy name, `Stripe-Rate-Limited-Reason`. It
// lands in the sentence the model reads ("Rate limited by <limit>."), so it must be an identifier,
// never prose, markup or an echoed secret. Anything else is discarded and the next source is used.

import { SecretMatcher } from "./secrets.js";

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;

/**
 * The name if it is an identifier holding no piece of a credential (nor anything shaped like
 * one), and no `//` (a name is never a URL); else `undefined`.
 */
export function cleanLimitName(
  raw: string | undefined,
  secrets: SecretMatcher = SecretMatcher.EMPTY,
): string | undefined {
  if (raw === undefined) return undefined;
  const name = raw.trim();
  return IDENTIFIER.test(name) && !name.includes("//") && !secrets.touches(name) ? name : undefined;
}
