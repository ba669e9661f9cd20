// The two opt-ins that look at a *successful* response (the providers guide), off by default so the
// success path stays one integer comparison: reading a bounded 2xx JSON body for a throttle it
// states (GraphQL answers its limits with 200), and pre-emption (a spent quota opens the
// cooldown until its reset). throttledFetch and throttleInterceptor call these; the logic lives here.

import {
  errorFromSignal,
  type UpstreamRateLimitedError,
} from "../errors/upstream-rate-limited-error.js";
import { bool } from "../internal/options.js";
import {
  type EventSource,
  emitEvent,
  preemptEvent,
  type ThrottleEventHook,
} from "../observability/events.js";
import { type DetectSettings, detect, type ThrottleSignal } from "../signals/detect.js";
import type { HeaderInput } from "../signals/headers.js";
import { quotaSpent } from "../signals/quota-spent.js";
import { cleanHost } from "../untrusted/limit-name.js";
import type { SecretMatcher } from "../untrusted/secrets.js";
import { BODY_CAP_BYTES, readBoundedBody, usableText } from "./read-body.js";
import type { ThrottleSettings } from "./settings.js";
import type { WireRequest } from "./wire.js";

/** Sees a successful response's headers and says whether its body is worth reading. */
export type SuccessBodyGate = (header: (name: string) => string | undefined) => boolean;

export interface SuccessPathOptions {
  /**
   * Read a successful (2xx) JSON response's body, at most 64 KiB and from a copy, for a throttle
   * its error envelope states (GitHub GraphQL's `RATE_LIMITED` in `errors`, Shopify's
   * `THROTTLED`, Google Maps' `OVER_QUERY_LIMIT` beside `error_message`; never a record inside
   * the data): `true` for every 2xx JSON body, or a gate that sees the headers first
   * and says whether to read, e.g. `(header) => header("x-ratelimit-remaining") === "0"` for
   * GitHub GraphQL. A body that states no throttle reaches the caller whole.
   * @default false (the success path reads nothing)
   */
  inspectSuccessBody?: boolean | SuccessBodyGate | undefined;
  /**
   * Open the cooldown when a *successful* response says its quota is spent
   * (`x-ratelimit-remaining: 0` with a reset, and the other quota headers the detector reads),
   * until that reset: later calls for the same limit and caller are answered locally with the
   * limit and the reset the upstream gave. Needs `cooldown`. @default false
   */
  preemptSpentQuota?: boolean | undefined;
}

export interface SuccessPath {
  gate: SuccessBodyGate | undefined;
  preempt: boolean;
}

const EVERY_BODY: SuccessBodyGate = () => true;

/** The opt-ins, checked once; `undefined` when neither is on. */
export function successPath(
  options: SuccessPathOptions,
  hasCooldown: boolean,
): SuccessPath | undefined {
  const read = options.inspectSuccessBody;
  if (read !== undefined && typeof read !== "boolean" && typeof read !== "function") {
    throw new TypeError("`inspectSuccessBody` must be true, false or a function of the headers");
  }
  const gate =
    read === true ? EVERY_BODY : typeof read === "function" ? (read as SuccessBodyGate) : undefined;
  const preempt = bool("preemptSpentQuota", options.preemptSpentQuota);
  if (preempt && !hasCooldown) {
    throw new TypeError("`preemptSpentQuota` needs `cooldown`: a spent quota is remembered there");
  }
  return gate === undefined && !preempt ? undefined : { gate, preempt };
}

/** What a successful response told: a throttle its body states, or a spent quota. */
export interface SuccessReading {
  throttle?: UpstreamRateLimitedError;
  spent?: UpstreamRateLimitedError;
}

const NOTHING: SuccessReading = {};

export async function readSuccess(
  response: Response,
  path: SuccessPath,
  request: WireRequest,
  settings: ThrottleSettings,
  signal: AbortSignal | null | undefined,
): Promise<SuccessReading> {
  const { status, headers } = response;
  if (response.body !== null && wantsBody(path, status, (name) => headers.get(name) ?? undefined)) {
    const read = await readBoundedBody(response.clone(), {
      maxBytes: BODY_CAP_BYTES,
      timeoutMs: settings.bodyTimeoutMs,
      signal,
    });
    const throttle = bodyThrottle(status, headers, usableText(read), request, settings);
    if (throttle !== undefined) {
      // A throttle's own body is handed to no one: let it go, and its connection with it.
      await response.body.cancel().catch(() => {});
      return { throttle };
    }
  }
  if (!path.preempt) return NOTHING;
  const spent = spentQuota(status, headers, request, settings);
  return spent === undefined ? NOTHING : { spent };
}

/**
 * Whether a successful response's body is worth reading: a 2xx JSON body declared within the cap,
 * and the author's gate says so. Shared by throttledFetch and throttleInterceptor.
 */
export function wantsBody(
  path: SuccessPath,
  status: number,
  header: (name: string) => string | undefined,
): boolean {
  if (path.gate === undefined || status < 200 || status >= 300) return false;
  const type = header("content-type");
  if (type === undefined || !/json/i.test(type)) return false;
  if (Number(header("content-length") ?? Number.NaN) > BODY_CAP_BYTES) return false;
  return gateSays(path.gate, header);
}

function gateSays(gate: SuccessBodyGate, header: (name: string) => string | undefined): boolean {
  try {
    return gate(header) === true;
  } catch {
    // The author's gate failing is no reason to fail a successful call.
    return false;
  }
}

/** The throttle a successful response's body states (read within bounds), or `undefined`. */
export function bodyThrottle(
  status: number,
  headers: HeaderInput,
  body: string | undefined,
  request: WireRequest,
  settings: ThrottleSettings,
): UpstreamRateLimitedError | undefined {
  if (body === undefined) return undefined;
  const secrets = request.credentials().matcher();
  const signal = detect({ status, headers, body }, detectSettings(secrets, settings));
  return signal === undefined ? undefined : errorOf(signal, request, secrets, settings);
}

function detectSettings(secrets: SecretMatcher, settings: ThrottleSettings): DetectSettings {
  return {
    maxMs: settings.maxRetryAfterSeconds * 1000,
    treat503AsThrottle: settings.treat503AsThrottle,
    upstreamText: settings.upstreamText,
    secrets,
  };
}

/**
 * The error for a throttle a successful response told of. Its status is 429, the refusal the
 * body (or the spent quota) stands for: a cooldown entry holds a 4xx or 5xx status (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/security.md).
 */
function errorOf(
  signal: ThrottleSignal,
  request: WireRequest,
  secrets: SecretMatcher,
  settings: ThrottleSettings,
): UpstreamRateLimitedError {
  return errorFromSignal(
    { ...signal, status: 429 },
    {
      limit: settings.limit,
      // Checked like a limit name, as on the throttle path: it may name the limit.
      host: cleanHost(request.host, secrets),
      defaultRetryAfterSeconds: settings.defaultRetryAfterSeconds,
      maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    },
  );
}

/**
 * A spent quota as the error a cooldown remembers: the upstream's reset and name, no message.
 * Shared by throttledFetch and throttleInterceptor.
 */
export function spentQuota(
  status: number,
  headers: HeaderInput,
  request: WireRequest,
  settings: ThrottleSettings,
): UpstreamRateLimitedError | undefined {
  let secrets: SecretMatcher | undefined;
  const signal = quotaSpent({ status, headers }, () => {
    secrets = request.credentials().matcher();
    return detectSettings(secrets, settings);
  });
  // Only a reset the upstream gave is remembered (`quotaSpent` returns none without one).
  return signal === undefined || secrets === undefined
    ? undefined
    : errorOf(signal, request, secrets, settings);
}

/** Reports a spent quota the cooldown now remembers, as a `preempt` event. */
export function reportPreempt(
  hook: ThrottleEventHook | undefined,
  spent: UpstreamRateLimitedError,
  status: number,
  source: EventSource,
): void {
  const event = preemptEvent(spent, status, source);
  if (event !== undefined) emitEvent(hook, event);
}
