// Throttles a response body states, whatever its status: the conventions providers share, as
// data. A body is read for them on the throttle path (a 4xx whose headers do not settle it) and,
// when the author opts in, on a 2xx (GraphQL answers its limits with 200).

import { isObject } from "../internal/is-object.js";
import { jsonRpcError } from "./body.js";
import { RATE_LIMIT_RPC_CODES } from "./rpc-codes.js";

/**
 * GraphQL `errors[].type` (GitHub documents `RATE_LIMITED` and has been seen answering
 * `RATE_LIMIT` with `code: graphql_rate_limit`) and `errors[].extensions.code` (Linear:
 * `RATELIMITED`, Shopify: `THROTTLED`, Apollo servers: `RATE_LIMITED`).
 */
const GRAPHQL_CODES: ReadonlySet<unknown> = new Set([
  "RATE_LIMITED",
  "RATE_LIMIT",
  "RATELIMITED",
  "THROTTLED",
]);

/**
 * Google APIs' `error.errors[].reason` (Drive, Sheets, Gmail, Calendar, YouTube: "Resolve
 * errors"), and the `reason` of a `google.rpc.ErrorInfo` in `error.details`.
 */
const GOOGLE_REASONS: ReadonlySet<unknown> = new Set([
  "rateLimitExceeded",
  "userRateLimitExceeded",
  "quotaExceeded",
  "dailyLimitExceeded",
  "RATE_LIMIT_EXCEEDED",
]);

/** `error.status` of google.rpc.Status; `status` of Google Maps' web services. */
const STATUS_VALUES: ReadonlySet<unknown> = new Set(["RESOURCE_EXHAUSTED", "OVER_QUERY_LIMIT"]);

/** Salesforce: `[{"errorCode": "REQUEST_LIMIT_EXCEEDED", "message": "TotalRequests Limit exceeded."}]`. */
const ERROR_CODES: ReadonlySet<unknown> = new Set(["REQUEST_LIMIT_EXCEEDED"]);

/** Slack `{"ok": false, "error": "ratelimited"}`; Stripe `{"error": {"code": "rate_limit"}}`. */
const ERROR_NAMES: ReadonlySet<unknown> = new Set(["ratelimited", "rate_limited", "rate_limit"]);

/**
 * The AWS SDK's throttling error codes (`@smithy/service-error-classification`,
 * THROTTLING_ERROR_CODES): a JSON-protocol body's `__type` (after its `#`) or `code`, or the
 * `x-amzn-errortype` header, names one of them.
 */
export const AWS_THROTTLING_CODES: ReadonlySet<unknown> = new Set([
  "BandwidthLimitExceeded",
  "EC2ThrottledException",
  "LimitExceededException",
  "PriorRequestNotComplete",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "RequestThrottled",
  "RequestThrottledException",
  "SlowDown",
  "ThrottledException",
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "TransactionInProgressException",
]);

/** An AWS error type as `__type` or `x-amzn-errortype` write it: `ns#Name:extra` → `Name`. */
export function awsErrorName(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 256) return undefined;
  const name = value.slice(value.lastIndexOf("#") + 1);
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(0, colon);
}

// Arrays a body lists its errors in are read this far, no further.
const MAX_ERRORS = 32;

function some(list: unknown, test: (item: Record<string, unknown>) => boolean): boolean {
  if (!Array.isArray(list)) return false;
  const end = Math.min(list.length, MAX_ERRORS);
  for (let index = 0; index < end; index += 1) {
    const item: unknown = list[index];
    if (isObject(item) && test(item)) return true;
  }
  return false;
}

function graphqlError(item: Record<string, unknown>): boolean {
  if (GRAPHQL_CODES.has(item.type)) return true;
  const extensions = item.extensions;
  return isObject(extensions) && GRAPHQL_CODES.has(extensions.code);
}

function googleReason(item: Record<string, unknown>): boolean {
  return GOOGLE_REASONS.has(item.reason);
}

/** Whether a parsed body states a throttle in one of the shared conventions. */
export function bodyStatesThrottle(body: unknown): boolean {
  if (Array.isArray(body)) return some(body, (item) => ERROR_CODES.has(item.errorCode));
  if (!isObject(body)) return false;
  const rpcCode = jsonRpcError(body)?.code;
  if (rpcCode !== undefined && RATE_LIMIT_RPC_CODES.has(rpcCode)) return true;
  if (some(body.errors, graphqlError)) return true;
  if (STATUS_VALUES.has(body.status)) return true;
  if (ERROR_CODES.has(body.errorCode)) return true;
  if (AWS_THROTTLING_CODES.has(awsErrorName(body.__type))) return true;
  const error = body.error;
  if (body.ok === false && ERROR_NAMES.has(error)) return true;
  if (!isObject(error)) return false;
  return (
    STATUS_VALUES.has(error.status) ||
    ERROR_NAMES.has(error.code) ||
    some(error.errors, googleReason) ||
    some(error.details, googleReason)
  );
}
