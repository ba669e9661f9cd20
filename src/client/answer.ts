// A cooldown answers in the shape the throttle it remembers came in, with the time left: a host
// that reads results gets a `rate_limited` result, one that only keeps `{ error }` or the text gets
// that, and a throttle that was thrown is thrown again (as a ThrottleCooldownError).

import {
  isValidLimit,
  parseRateLimitedResult,
  type RateLimitedError,
  rateLimitedResult,
  rateLimitedText,
} from "../contract/result.js";
import { isObject } from "../internal/is-object.js";
import { cleanMessage } from "../untrusted/message.js";
import { ThrottleCooldownError } from "./errors.js";
import type { HostThrottle } from "./host-throttle.js";

export type AnswerShape =
  | { kind: "thrown" }
  | { kind: "text" }
  | { kind: "error-object"; error: RateLimitedError | undefined }
  | {
      kind: "result";
      placement: "structuredContent" | "meta";
      error: RateLimitedError | undefined;
    };

/** How a throttle came back, to answer later calls the same way. Never throws. */
export function answerShape(outcome: Outcome, throttle: HostThrottle): AnswerShape {
  if (!outcome.ok || throttle.layer === "server") return { kind: "thrown" };
  try {
    return returnedShape(outcome.value, throttle);
  } catch {
    // A value that read as a throttle once and throws now: answer with a plain `rate_limited`
    // result.
    return { kind: "result", placement: "structuredContent", error: undefined };
  }
}

function returnedShape(value: unknown, throttle: HostThrottle): AnswerShape {
  if (typeof value === "string") return { kind: "text" };
  if (throttle.source === "error" && isObject(value)) {
    return {
      kind: "error-object",
      error: parseRateLimitedResult({ isError: true, structuredContent: value }),
    };
  }
  const placement = throttle.source === "_meta" ? "meta" : "structuredContent";
  return { kind: "result", placement, error: parseRateLimitedResult(value) };
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The answer to a call made while `limit` cools down for `leftMs` more: a value, or thrown. */
export function cooldownAnswer(
  shape: AnswerShape,
  layer: "tool" | "server",
  limit: string | undefined,
  leftMs: number,
): Outcome {
  const seconds = Math.ceil(leftMs / 1000);
  const thrown: Outcome = {
    ok: false,
    error: new ThrottleCooldownError({ layer, limit, retryAfterMs: leftMs }),
  };
  if (shape.kind === "thrown" || !isValidLimit(limit)) return thrown;
  try {
    return returnedAnswer(shape, limit, seconds);
  } catch {
    // Never a TypeError from the cooldown: what cannot be built as a result is thrown as ours.
    return thrown;
  }
}

function returnedAnswer(
  shape: Exclude<AnswerShape, { kind: "thrown" }>,
  limit: string,
  seconds: number,
): Outcome {
  if (shape.kind === "text") return { ok: true, value: rateLimitedText(limit, seconds) };
  const result = rateLimitedResult(
    {
      limit,
      retryAfterSeconds: seconds,
      // The server's message passes the door an upstream's passes before the host repeats it.
      message: shape.error === undefined ? undefined : cleanMessage(shape.error.message),
      resetsAt: resetsWithin(shape.error?.resets_at, seconds),
    },
    { placement: shape.kind === "result" ? shape.placement : "structuredContent" },
  );
  return { ok: true, value: shape.kind === "result" ? result : result.structuredContent };
}

/**
 * The server's `resets_at`, only when it agrees with the time left: an answer whose wait was
 * clamped (`maxRetryAfterSeconds`) or has run down must not carry a later reset than it says.
 */
function resetsWithin(resetsAt: string | undefined, seconds: number): Date | undefined {
  if (resetsAt === undefined) return undefined;
  const at = new Date(resetsAt);
  return at.getTime() <= Date.now() + seconds * 1000 ? at : undefined;
}
