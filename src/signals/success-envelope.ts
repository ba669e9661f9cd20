// What of a successful (2xx) body may state a throttle: only the error envelopes providers
// document for answers that carry data, never a record inside the data. A list item with
// `errorCode`, or a resource whose own `status`, `retry_after` or `message` fields look like a
// throttle's, is the caller's data: it makes no throttle and lends none its delay or words.

import { isObject } from "../internal/is-object.js";

/**
 * The envelope members of a 2xx body, alone, or `undefined` when it has none:
 * - GraphQL's top-level `errors` (GitHub, Linear, Shopify), with the top-level `extensions`
 *   beside it (Shopify's cost budget);
 * - a top-level `error` (JSON-RPC, Google's `google.rpc.Status`, Stripe-like objects), with
 *   Slack's `ok: false` beside it;
 * - Google Maps' top-level `status` beside its `error_message`.
 * A top-level list (records) and every other field (`message`, `retry_after`, `status` alone,
 * `errorCode`, `__type`) are data.
 */
export function successEnvelope(body: unknown): Record<string, unknown> | undefined {
  if (!isObject(body) || Array.isArray(body)) return undefined;
  const envelope: Record<string, unknown> = {};
  let found = false;
  if (Array.isArray(body.errors)) {
    envelope.errors = body.errors;
    if (isObject(body.extensions)) envelope.extensions = body.extensions;
    found = true;
  }
  if (body.error !== undefined && body.error !== null) {
    envelope.error = body.error;
    if (body.ok === false) envelope.ok = false;
    found = true;
  }
  if (typeof body.status === "string" && typeof body.error_message === "string") {
    envelope.status = body.status;
    envelope.error_message = body.error_message;
    found = true;
  }
  return found ? envelope : undefined;
}
