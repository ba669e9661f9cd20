// One fan-out in progress (`fanOutTool`): the parts' abort signals, the grace after the first
// throttle, the deadline after which the answer goes whatever the parts still do, and the
// answer a throttle makes.

import { parseRateLimitedResult } from "../contract/result.js";
import { emitEvent, type ThrottleEventHook } from "../observability/events.js";
import { eventLimitName } from "../untrusted/limit-name.js";

/** The shape of a tool result a fan-out reads. */
interface ResultLike {
  isError?: boolean | undefined;
}

/** How long after `graceMs` aborted parts may take to settle before the answer goes. */
const DEADLINE_SLACK_MS = 50;

/**
 * Why a fan-out aborted its other parts: the `reason` of the signal each part is given.
 *
 * @example
 * ```ts
 * import { FanOutAbortedError } from "mcp-upstream-throttle";
 *
 * function partWasCut(signal: AbortSignal): boolean {
 *   return signal.aborted && signal.reason instanceof FanOutAbortedError;
 * }
 * ```
 */
export class FanOutAbortedError extends Error {
  /** Always `"FanOutAbortedError"`. */
  override readonly name = "FanOutAbortedError";
}

/**
 * One fan-out in progress: a controller per part (a shared signal would carry a listener per
 * part, and warn past ten in Node; aborting each part's own is the same to the parts), the
 * tool call's own signal, and the timers of the grace and of the deadline. Once a part is
 * throttled or fails, the answer comes shortly after `graceMs`, whatever the parts still
 * running do: one that ignores its abort signal cannot hold the call open.
 */
export class FanOutRun {
  readonly deadline: Promise<void>;
  readonly #controllers: AbortController[];
  readonly #graceMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#abort(this.#outer?.reason);
  #passDeadline: () => void = () => {};
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(parts: number, graceMs: number, outer: AbortSignal | undefined) {
    this.#controllers = Array.from({ length: parts }, () => new AbortController());
    this.#graceMs = graceMs;
    this.#outer = outer;
    this.deadline = new Promise<void>((resolve) => {
      this.#passDeadline = resolve;
    });
    if (outer?.aborted) this.#abort(outer.reason);
    outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
  }

  signal(index: number): AbortSignal {
    return (this.#controllers[index] as AbortController).signal;
  }

  /** A part was throttled: the others have `graceMs` to report theirs. */
  throttled(): void {
    this.#graceTimer ??= setTimeout(
      () => this.#abort(new FanOutAbortedError("a part of the fan-out was throttled")),
      this.#graceMs,
    );
    this.#startDeadline();
  }

  /** A part failed: the others are aborted now. */
  failed(): void {
    this.#abort(new FanOutAbortedError("a part of the fan-out failed"));
    this.#startDeadline();
  }

  /** The fan-out answered: no timer, no listener and no part outlives it. */
  end(): void {
    clearTimeout(this.#graceTimer);
    clearTimeout(this.#deadlineTimer);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
    this.#abort(new FanOutAbortedError("the fan-out is over"));
  }

  #startDeadline(): void {
    this.#deadlineTimer ??= setTimeout(this.#passDeadline, this.#graceMs + DEADLINE_SLACK_MS);
  }

  #abort(reason: unknown): void {
    for (const controller of this.#controllers)
      if (!controller.signal.aborted) controller.abort(reason);
  }
}

/** The throttled part asking for the longest wait, told to `onEvent` with its limit cleaned. */
export function throttleAnswer<Result extends ResultLike>(
  throttled: Result[],
  onEvent: ThrottleEventHook | undefined,
): Result {
  const answer = longestWait(throttled);
  const error = parseRateLimitedResult(answer);
  if (error !== undefined) {
    emitEvent(onEvent, {
      type: "throttle",
      source: "fanOutTool",
      // A part's result is relayed as it is, but its limit reaches operators cleaned.
      limit: eventLimitName(error.limit),
      ...(error.retry_after_seconds === undefined
        ? {}
        : { retryAfterMs: error.retry_after_seconds * 1000 }),
    });
  }
  return answer;
}

/** The throttled result asking for the longest wait; one with no known wait counts as longest. */
function longestWait<Result extends ResultLike>(results: Result[]): Result {
  const wait = (result: Result) =>
    parseRateLimitedResult(result)?.retry_after_seconds ?? Number.POSITIVE_INFINITY;
  return results.reduce((longest, result) => (wait(result) > wait(longest) ? result : longest));
}
