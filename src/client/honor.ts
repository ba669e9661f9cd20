// honorThrottles: the wait loop every host would otherwise write (the host-side guide). A throttle
// whose delay fits the caller's budget is waited out and the call sent again; any other comes back
// at once, unchanged: a tool-layer throttle is for the model to weigh, an outer-layer one is the
// caller's error. A cooldown per limit answers calls that would hit a throttled limit.

import { sleep } from "../wrappers/retry.js";
import { answerShape, cooldownAnswer, type Outcome } from "./answer.js";
import { Budget } from "./budget.js";
import { HostCooldown, monotonicNow, type Verdict } from "./cooldown.js";
import { type HonorThrottlesOptions, honorSettings } from "./options.js";
import { reportCooldownHit, reportRetry, reportThrottle } from "./report.js";
import { readResultThrottle, readThrottle } from "./throttle.js";

const GO: Verdict = { kind: "go", probes: [] };
/** What a call that cannot wait for the probe in flight is told: the smallest whole delay. */
const PROBE_RETRY_MS = 1000;

/**
 * Wraps `callTool` (any function whose result or error may be a throttle) so throttles are
 * honoured. The wrapper has the same call signature; `this` is passed through.
 *
 * @typeParam CallTool - The wrapped function's own type; the wrapper keeps its parameters.
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { honorThrottles } from "mcp-upstream-throttle/client";
 *
 * const client = new Client({ name: "host", version: "1.0.0" });
 * const callTool = honorThrottles(client.callTool.bind(client), { maxWaitMs: 5000 });
 * const result = await callTool({ name: "search", arguments: { query: "mcp" } });
 * ```
 */
export function honorThrottles<CallTool extends (...args: never[]) => Promise<unknown>>(
  callTool: CallTool,
  options?: HonorThrottlesOptions<Parameters<CallTool>>,
): (...args: Parameters<CallTool>) => ReturnType<CallTool> {
  type Args = Parameters<CallTool>;
  if (typeof callTool !== "function") throw new TypeError("`callTool` must be a function");
  const settings = honorSettings(options);
  const { onEvent } = settings;
  const cooldown = settings.cooldown ? new HostCooldown() : undefined;

  async function honoredCall(this: unknown, ...args: Args): Promise<unknown> {
    const key = settings.callKey(...args);
    const signal = settings.signal(...args);
    const budget = new Budget(settings);
    const pause = async (
      from: { layer: "tool" | "server"; limit?: string | undefined },
      waitMs: number,
    ) => {
      reportRetry(onEvent, from, budget.retries, waitMs);
      await sleep(waitMs, signal);
    };
    for (;;) {
      const verdict = cooldown?.check(key) ?? GO;
      if (verdict.kind === "probing") {
        // Half-open: one call finds out for everyone. Waiting for it spends the budget; a call
        // whose budget ends first is answered here, told to come back shortly (never sent: 200
        // callers with a short budget would otherwise all reach the server at once).
        const started = monotonicNow();
        let settled = false;
        await sleep(
          budget.left,
          signal,
          verdict.settled.then(() => {
            settled = true;
          }),
        );
        budget.spend(monotonicNow() - started);
        if (settled) continue;
        const { entry } = verdict;
        reportCooldownHit(onEvent, entry, PROBE_RETRY_MS);
        return unwrap(cooldownAnswer(entry.shape, entry.layer, entry.limit, PROBE_RETRY_MS));
      }
      if (verdict.kind === "cooling") {
        const { entry, leftMs } = verdict;
        const wait = budget.next(leftMs);
        if (wait === undefined) {
          reportCooldownHit(onEvent, entry, leftMs);
          return unwrap(cooldownAnswer(entry.shape, entry.layer, entry.limit, leftMs));
        }
        await pause(entry, wait);
        continue;
      }
      const outcome = await settle(() => callTool.apply(this, args as never));
      const throttle = outcome.ok ? readResultThrottle(outcome.value) : readThrottle(outcome.error);
      // SEP-3304 RL-8: a delay past `maxRetryAfterSeconds` is believed only that far.
      const delayMs =
        throttle?.retryAfterMs === undefined
          ? undefined
          : Math.min(throttle.retryAfterMs, settings.maxRetryAfterMs);
      cooldown?.settle(
        key,
        verdict.probes,
        throttle === undefined || delayMs === undefined
          ? undefined
          : { ...throttle, delayMs, shape: answerShape(outcome, throttle) },
      );
      if (throttle === undefined) return unwrap(outcome);
      reportThrottle(onEvent, throttle, delayMs);
      const wait = delayMs === undefined ? undefined : budget.next(delayMs);
      if (wait === undefined) return unwrap(outcome);
      await pause(throttle, wait);
    }
  }
  return honoredCall as (...args: Args) => ReturnType<CallTool>;
}

async function settle(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function unwrap(outcome: Outcome): unknown {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}
