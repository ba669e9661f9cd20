// honorThrottles: the wait loop every host would otherwise write (the host-side guide). A throttle
// whose delay fits the caller's budget is waited out and the call sent again; any other comes back
// at once, unchanged: a tool-layer throttle is for the model to weigh, an outer-layer one is the
// caller's error. A cooldown per limit answers calls that would hit a throttled limit.

import { monotonicNow } from "../internal/monotonic.js";
import { sleep } from "../internal/sleep.js";
import { eventLimitName } from "../untrusted/limit-name.js";
import { answerShape, cooldownAnswer, type Outcome } from "./answer.js";
import { Budget } from "./budget.js";
import { type CooldownEntry, HostCooldown, type Learned, type Verdict } from "./cooldown.js";
import type { HostThrottle } from "./host-throttle.js";
import { type HonorSettings, type HonorThrottlesOptions, honorSettings } from "./options.js";
import { reportCooldownHit, reportRetry, reportThrottle } from "./report.js";
import { readResultThrottle, readThrottle } from "./throttle.js";

const GO: Verdict = { kind: "go", probes: [] };
/** What a call that cannot wait for the probe in flight is told: the smallest whole delay. */
const PROBE_RETRY_MS = 1000;
/** Said by a step that waited (or learned nothing yet): check the cooldown again. */
const AGAIN = Symbol("again");

type Layered = { layer: "tool" | "server"; limit?: string | undefined };
/** A retry waited for: reported when it is sent, never for one an abort or the cooldown ends. */
type Retry = { from: Layered; attempt: number; waitMs: number };

/**
 * Wraps `callTool` (any function whose result or error may be a throttle) so throttles are
 * honoured. The wrapper has the same call signature; `this` is passed through.
 *
 * Everything behind one wrapper is taken for one MCP server: the server's own refusal (`-32023`,
 * `-32029`, an HTTP 429) holds back every call through it until its delay has passed. Wrap each
 * server's `callTool` on its own.
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
    let retry: Retry | undefined;
    for (;;) {
      const verdict = cooldown?.check(key) ?? GO;
      if (verdict.kind !== "go") {
        const step = await held(verdict, budget, signal, settings);
        if (step === AGAIN) continue;
        if ("ok" in step) return unwrap(step);
        retry = step;
        continue;
      }
      if (retry !== undefined) reportRetry(onEvent, retry.from, retry.attempt, retry.waitMs);
      retry = undefined;
      const outcome = await settle(() => callTool.apply(this, args as never));
      const throttle = outcome.ok ? readResultThrottle(outcome.value) : readThrottle(outcome.error);
      // SEP-3304 RL-8: a delay past `maxRetryAfterSeconds` is believed only that far.
      const delayMs =
        throttle?.retryAfterMs === undefined
          ? undefined
          : Math.min(throttle.retryAfterMs, settings.maxRetryAfterMs);
      cooldown?.settle(key, verdict.probes, learned(outcome, throttle, delayMs));
      if (throttle === undefined) return unwrap(outcome);
      reportThrottle(onEvent, throttle, delayMs);
      // A throttle known only from its sentence may be a tool's content quoting it: the call is
      // not sent again unless the host said its tools may be (`retryOnText`).
      const resend = throttle.source !== "text" || settings.retryOnText;
      const wait = delayMs === undefined || !resend ? undefined : budget.next(delayMs);
      if (wait === undefined) return unwrap(outcome);
      await sleep(wait, signal);
      retry = { from: throttle, attempt: budget.retries, waitMs: wait };
    }
  }
  return honoredCall as (...args: Args) => ReturnType<CallTool>;
}

/**
 * A call the cooldown holds: waits for the time left or the probe in flight when that fits the
 * budget (then the retry it waited for, or `AGAIN`), else the cooldown's answer.
 */
async function held(
  verdict: Exclude<Verdict, { kind: "go" }>,
  budget: Budget,
  signal: AbortSignal | undefined,
  settings: HonorSettings<never>,
): Promise<Outcome | Retry | typeof AGAIN> {
  const { entry } = verdict;
  if (verdict.kind === "cooling") {
    const wait = budget.next(verdict.leftMs);
    if (wait === undefined) return answer(settings, entry, verdict.leftMs);
    await sleep(wait, signal);
    return { from: entry, attempt: budget.retries, waitMs: wait };
  }
  // Half-open: one call finds out for everyone. Waiting for it spends the budget, and never
  // longer than the probe's hold: a probe that hangs lets the next call probe in its place. A
  // call whose budget ends first is answered here, told to come back shortly (never sent: 200
  // callers with a short budget would otherwise all reach the server at once).
  const started = monotonicNow();
  const left = budget.left;
  let settled = false;
  const done = verdict.settled.then(() => {
    settled = true;
  });
  await sleep(Math.min(left, verdict.holdLeftMs), signal, done);
  budget.spend(monotonicNow() - started);
  if (settled || verdict.holdLeftMs < left) return AGAIN;
  return answer(settings, entry, PROBE_RETRY_MS);
}

function answer(settings: HonorSettings<never>, entry: CooldownEntry, leftMs: number): Outcome {
  reportCooldownHit(settings.onEvent, entry, leftMs);
  return cooldownAnswer(entry.shape, entry.layer, entry.limit, leftMs);
}

/** What the cooldown learns from a call's outcome: a throttle with a delay, or nothing. */
function learned(
  outcome: Outcome,
  throttle: HostThrottle | undefined,
  delayMs: number | undefined,
): Learned | undefined {
  if (throttle === undefined || delayMs === undefined) return undefined;
  // The limit names the entry and the sentence the cooldown writes: it passes the door an
  // upstream's name passes (an identifier, short), whatever the server put there.
  const limit = throttle.limit === undefined ? undefined : eventLimitName(throttle.limit);
  return { ...throttle, limit, delayMs, shape: answerShape(outcome, throttle) };
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
