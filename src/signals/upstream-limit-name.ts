// The upstream's own name for the limit that tripped, from the headers and bodies that carry
// one, each through the limit-name door.

import { isObject } from "../internal/is-object.js";
import { cleanLimitName } from "../untrusted/limit-name.js";
import { SecretMatcher } from "../untrusted/secrets.js";
import type { DelayContext } from "./delay-context.js";
import {
  RATELIMIT_NAME,
  RATELIMIT_REASON,
  RESOURCE,
  STRIPE_REASON,
  ZENDESK_FIELDS,
} from "./fields.js";
import type { HeaderReader } from "./headers.js";
import { zendeskExhausted } from "./vendor-resets.js";
import { read } from "./verdict.js";

/**
 * The upstream's own name: GitHub's resource, a `RateLimit-Name` (GitLab), the IETF policy's
 * name, Stripe's reason, Atlassian's `RateLimit-Reason`, HubSpot's `policyName` in the body, the
 * endpoint of Zendesk's spent endpoint quota.
 */
export function upstreamLimitName(
  context: DelayContext,
  secrets: SecretMatcher,
): string | undefined {
  const { headers, body } = context;
  const clean = secrets === SecretMatcher.EMPTY ? cleanWithoutSecrets : cleanLimitName;
  return (
    clean(read(headers, RESOURCE), secrets) ??
    clean(read(headers, RATELIMIT_NAME), secrets) ??
    clean(context.policy()?.name, secrets) ??
    clean(read(headers, STRIPE_REASON), secrets) ??
    clean(read(headers, RATELIMIT_REASON), secrets) ??
    (isObject(body) && typeof body.policyName === "string"
      ? clean(body.policyName, secrets)
      : undefined) ??
    clean(zendeskEndpoint(headers), secrets)
  );
}

/** The endpoint of Zendesk's spent endpoint quota. */
function zendeskEndpoint(headers: HeaderReader): string | undefined {
  return (headers.fields & ZENDESK_FIELDS) === 0 ? undefined : zendeskExhausted(headers)?.endpoint;
}

// Without request credentials a name's verdict depends on the name alone, and providers repeat
// a handful (`core`, `graphql`, `burst`): remembered, a few hundred at most.
const CLEAN_NAMES = new Map<string, string | null>();
const MAX_CLEAN_NAMES = 256;

function cleanWithoutSecrets(raw: string | undefined, secrets: SecretMatcher): string | undefined {
  if (raw === undefined) return undefined;
  const known = CLEAN_NAMES.get(raw);
  if (known !== undefined) return known ?? undefined;
  const clean = cleanLimitName(raw, secrets);
  if (raw.length <= 64) {
    if (CLEAN_NAMES.size >= MAX_CLEAN_NAMES) CLEAN_NAMES.clear();
    CLEAN_NAMES.set(raw, clean ?? null);
  }
  return clean;
}
