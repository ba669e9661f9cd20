// honorThrottles: the wait loop every host would otherwise write (design §9). A throttle whose
// delay fits the caller's budget is waited out and the call sent again; any other comes back
// at once, unchanged: a tool-layer throttle is for the model to weigh, an outer-layer one is
// the caller's error. A cooldown per limit answers calls that would hit a throttled limit.

import { emitEvent } from "../events.js";
import { sleep } from "../retry.js";
import type { DelaySource } from "../signals/delay.js";
import { answerShape, cooldownAnswer, type Outcome } from "./answer.js";
import { HostCooldown, type Verdict } from "./cooldown.js";
import { type HonorSettings, type HonorThrottlesOptions, honorSettings } from "./options.js";
import { type HostThrottle, readThrottle } from "./throttle.js";
import { waitAtMost } from "./wait.js";

/** The `limit` of events about the MCP server's own limit, which names none. */
export const SERVER_LIMIT_NAME = "mcp-server";

const GO: Verdict = { kind: "go", probes: [] };

/**
 * Wraps `callTool` (any function whose result or error may be a throttle) so throttles are
 * honoured. The wrapper has the same call signature; `this` is passed through.
 */
export function honorThrottles<Args extends unknown[], Result>(
  callTool: (...args: Args) => Promise<Result>,
  options?: HonorThrottlesOptions<Args>,
): (...args: Args) => Promise<Result> {
  if (typeof callTool !== "function") throw new TypeError("`callTool` must be a function");
  const settings = honorSettings(options);
  const cooldown = settings.cooldown ? new HostCooldown() : undefined;

  return async function honoredCall(this: unknown, ...args: Args): Promise<Result> {
    const key = settings.callKey(...args);
    const signal = settings.signal(...args);
    const budget = new Budget(settings);
    let claim = true;
    for (;;) {
      const verdict = cooldown?.check(key, claim) ?? GO;
      if (verdict.kind === "probing") {
        // Half-open: one call finds out for everyone. Waiting for it spends the budget; when
        // that is gone, this call goes too.
        const started = Date.now();
        await waitAtMost(verdict.settled, budget.left, signal);
        budget.spend(Date.now() - started);
        claim = budget.left > 0;
        continue;
      }
      if (verdict.kind === "cooling") {
        const { entry, leftMs } = verdict;
        const wait = budget.next(leftMs);
        if (wait === undefined) {
          report(settings, { type: "cooldown-hit", limit: entry.limit, retryAfterMs: leftMs });
          return unwrap(cooldownAnswer(entry.shape, entry.layer, entry.limit, leftMs));
        }
        report(settings, {
          type: "retry",
          limit: entry.limit,
          attempt: budget.retries,
          waitMs: wait,
        });
        await sleep(wait, signal);
        continue;
      }
      const outcome = await settle(() => callTool.apply(this, args));
      const throttle = readThrottle(outcome.ok ? outcome.value : outcome.error);
      const delayMs =
        throttle?.retryAfterMs === undefined
          ? undefined
          : Math.min(throttle.retryAfterMs, settings.maxRetryAfterMs);
      cooldown?.settle(
        key,
        verdict.probes,
        throttle === undefined || delayMs === undefined
          ? undefined
          : {
              layer: throttle.layer,
              limit: throttle.limit,
              delayMs,
              shape: answerShape(outcome, throttle),
            },
      );
      if (throttle === undefined) return unwrap(outcome);
      report(settings, { type: "throttle", limit: throttle.limit, delayMs, throttle });
      const wait = delayMs === undefined ? undefined : budget.next(delayMs);
      if (wait === undefined) return unwrap(outcome);
      report(settings, {
        type: "retry",
        limit: throttle.limit,
        attempt: budget.retries,
        waitMs: wait,
      });
      await sleep(wait, signal);
    }
  };
}

/** One call's waits: how many, and how long in all. */
class Budget {
  readonly #settings: HonorSettings<never>;
  #waited = 0;
  retries = 0;

  constructor(settings: HonorSettings<never>) {
    this.#settings = settings;
  }

  get left(): number {
    return Math.max(0, this.#settings.maxWaitMs - this.#waited);
  }

  spend(ms: number): void {
    this.#waited += ms;
  }

  /** How long to wait before the next attempt, or `undefined` when `delayMs` does not fit. */
  next(delayMs: number): number | undefined {
    const left = this.left;
    if (this.retries >= this.#settings.maxAttempts || delayMs > left) return undefined;
    // SEP-3304 RL-7: jitter, only ever later than asked, so callers throttled together do not
    // come back together (as the core's retry); cut to the budget, never below the delay.
    const wait = Math.min(delayMs + Math.random() * Math.max(delayMs * 0.1, 50), left);
    this.retries += 1;
    this.#waited += wait;
    return wait;
  }
}

async function settle(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function unwrap<Result>(outcome: Outcome): Result {
  if (outcome.ok) return outcome.value as Result;
  throw outcome.error;
}

type Report =
  | { type: "cooldown-hit"; limit: string | undefined; retryAfterMs: number }
  | { type: "retry"; limit: string | undefined; attempt: number; waitMs: number }
  | {
      type: "throttle";
      limit: string | undefined;
      delayMs: number | undefined;
      throttle: HostThrottle;
    };

// The host never sees the upstream's status: every throttle it sees is reported as a 429.
function report(settings: HonorSettings<never>, event: Report): void {
  const base = {
    source: "honorThrottles",
    limit: event.limit ?? SERVER_LIMIT_NAME,
    status: 429,
  } as const;
  if (event.type === "cooldown-hit") {
    emitEvent(settings.onEvent, {
      ...base,
      type: "cooldown-hit",
      retryAfterMs: event.retryAfterMs,
    });
  } else if (event.type === "retry") {
    emitEvent(settings.onEvent, {
      ...base,
      type: "retry",
      attempt: event.attempt,
      waitMs: event.waitMs,
    });
  } else {
    emitEvent(settings.onEvent, {
      ...base,
      type: "throttle",
      ...(event.delayMs === undefined ? {} : { retryAfterMs: event.delayMs }),
      delaySource: delaySource(event.throttle, event.delayMs),
    });
  }
}

function delaySource(throttle: HostThrottle, delayMs: number | undefined): DelaySource {
  if (delayMs === undefined) return "none";
  if (throttle.source === "retryAfterMs") return "json-rpc-retry-after-ms";
  if (throttle.source === "retryAfterSeconds") return "json-rpc-retry-after-seconds";
  if (throttle.source === "cooldown") return "cooldown";
  // A tool result's `retry_after_seconds`: the core's sources have no closer name for it.
  return "body-retry-after";
}
