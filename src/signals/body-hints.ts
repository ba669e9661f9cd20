// Delays that only a response body carries.

import { isObject } from "../internal/is-object.js";
import { jsonRpcError } from "./body.js";

/** Discord: `{"message": "You are being rate limited.", "retry_after": 64.57, "global": false}`. */
export function discordRetryAfterMs(body: unknown): number | undefined {
  if (!isObject(body)) return undefined;
  return secondsToMs(body.retry_after);
}

// google.rpc.Duration in its JSON form: decimal seconds with an "s" suffix.
const PROTO_DURATION = /^(\d+(?:\.\d{1,9})?)s$/;

/**
 * Google APIs: a `google.rpc.RetryInfo` among `error.details`, whose `retryDelay` is
 * `"57.238747106s"` (or `{ seconds, nanos }` where a client kept the proto form).
 */
export function googleRetryDelayMs(body: unknown): number | undefined {
  const details = isObject(body) && isObject(body.error) ? body.error.details : undefined;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isObject(detail) || typeof detail["@type"] !== "string") continue;
    if (!detail["@type"].endsWith("google.rpc.RetryInfo")) continue;
    const delay = detail.retryDelay;
    if (typeof delay === "string") {
      const match = PROTO_DURATION.exec(delay.trim());
      if (match) return secondsToMs(Number(match[1]));
    } else if (isObject(delay)) {
      const seconds = Number(delay.seconds ?? 0) + Number(delay.nanos ?? 0) / 1e9;
      return secondsToMs(seconds);
    }
  }
  return undefined;
}

/** An MCP server's JSON-RPC error with `data.retryAfterSeconds` (seen with `-32029`). */
export function jsonRpcRetryAfterSecondsMs(body: unknown): number | undefined {
  const data = jsonRpcError(body)?.data;
  return isObject(data) ? secondsToMs(data.retryAfterSeconds) : undefined;
}

/**
 * A GraphQL cost budget (Shopify's Admin API, `extensions.cost`): the query needs
 * `requestedQueryCost` points, `throttleStatus.currentlyAvailable` are left, and the bucket
 * refills at `restoreRate` points a second, so the wait is the shortfall over the rate.
 */
export function graphqlCostWaitMs(body: unknown): number | undefined {
  const extensions = isObject(body) ? body.extensions : undefined;
  const cost = isObject(extensions) ? extensions.cost : undefined;
  if (!isObject(cost) || !isObject(cost.throttleStatus)) return undefined;
  const requested = cost.requestedQueryCost;
  const { currentlyAvailable: available, restoreRate: rate } = cost.throttleStatus;
  if (typeof requested !== "number" || typeof available !== "number") return undefined;
  if (typeof rate !== "number" || !(rate > 0) || !Number.isFinite(requested + available)) {
    return undefined;
  }
  return secondsToMs(Math.max(0, requested - available) / rate);
}

function secondsToMs(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  const ms = Math.ceil(value * 1000);
  return Number.isFinite(ms) ? ms : undefined;
}
