// The one guarded call every door is an adapter over: look in the cooldown, call, read what came
// back, remember a throttle, retry a short one, and tell (events, the tool call in progress). A
// door says only how to call, how to read the answer, and what a throttle becomes (a thrown
// error, a tool result, a response an SDK gives up on). A fix to the pipeline is an edit here.
//
// The success path stays what it was in each door: one `await` of the call itself, one check of
// what came back, nothing built. A store that answers at once (memory, a Redis view) is asked
// without an `await`, so the request leaves in the same tick (an `await` there alone cost 1.6×
// the latency with 16 calls in flight).

import { Cooldown, type CooldownLookup, cooldownFrom } from "../cooldown/cooldown.js";
import { isThenable } from "../cooldown/hooks.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { type CallNotes, currentCall, noteAnswered, noteThrottle } from "../internal/call-notes.js";
import { sleep } from "../internal/sleep.js";
import { emitEvent, type ThrottleEventHook, throttleEvent } from "../observability/events.js";
import type { Credentials } from "../untrusted/credentials.js";
import type { ActiveCooldown } from "../untrusted/store-entry.js";
import { cooldownHitEvent, errorFromCooldown } from "./cooldown-error.js";
import { type Door, DoorCall, type GuardSettings, type Outcome } from "./door.js";
import { markRemembered, rememberThrottle } from "./remembered.js";
import { type RetryPolicy, retryEvent } from "./retry.js";
import { reportPreempt } from "./success-path.js";

export type { Door, GuardSettings, Outcome, Resend } from "./door.js";

const NOTHING: Outcome = {};

/** The call a request was sent outside of: what is heard of it is told to no call. */
const NO_CALL: CallNotes = { throttle() {}, answered() {} };

export class GuardedCall<A, B, R> {
  /** The door's cooldown, or `undefined` when `cooldown` is off. */
  readonly cooldown: Cooldown | undefined;
  readonly #door: Door<A, B, R>;
  readonly #limit: string | undefined;
  readonly #onEvent: ThrottleEventHook | undefined;
  readonly #retry: RetryPolicy | undefined;

  constructor(door: Door<A, B, R>, settings: GuardSettings) {
    this.#door = door;
    this.#limit = settings.limit;
    this.#onEvent = settings.onEvent;
    this.#retry = settings.retry;
    this.cooldown = cooldownFrom(settings.cooldown, {
      source: door.source,
      maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
      onEvent: settings.onEvent,
    });
  }

  /**
   * The remembered throttle still in force for this call, or nothing: at once when the store
   * answers at once, else a promise. The success path asks the store one question, without I/O.
   */
  check(
    a: A,
    b: B,
    call?: CallNotes,
  ): UpstreamRateLimitedError | undefined | Promise<UpstreamRateLimitedError | undefined> {
    const cooldown = this.#cooldownFor(call);
    if (cooldown === undefined || !cooldown.mayApply(this.#limit, this.#door.host, a, b))
      return undefined;
    const lookup = this.#lookup(cooldown, a, b, undefined);
    const entry = cooldown.check(lookup);
    return isThenable(entry)
      ? entry.then((found) => this.#hit(found, lookup, call))
      : this.#hit(entry, lookup, call);
  }

  /** The whole call (check, call, read, retry), telling `notes` or the call in progress. */
  async run(a: A, b: B, notes?: CallNotes): Promise<R> {
    const door = this.#door;
    // The call that sends the request, taken now: where calls are told apart one at a time,
    // the one running when the answer comes may be another (a request a finished call left).
    const call = notes ?? currentCall() ?? NO_CALL;
    if (this.#cooldownFor(call) !== undefined) {
      const found = this.check(a, b, call);
      const active = isThenable(found) ? await found : found;
      if (active !== undefined) return this.#answer(active, undefined);
    }
    for (let attempt = 0; ; attempt += 1) {
      let value: R;
      let pending: Promise<Outcome | undefined> | undefined;
      try {
        value = await (door.send as (a: A, b: B) => R | Promise<R>)(a, b);
        pending = door.read?.(value, a, b);
      } catch (error) {
        const told = door.caught === undefined ? undefined : await door.caught(error, a, b);
        if (told?.throttle === undefined) throw error;
        this.#publish(told.throttle, told);
        if (door.answer !== undefined) return this.#final(told.throttle, told, error, a, b, call);
        const remembered = this.#ended(told.throttle, told, a, b, call);
        if (remembered !== undefined) await remembered;
        noteThrottle(told.throttle, call, this.#credentials(told, a, b));
        throw told.throttle;
      }
      if (pending === undefined) {
        // Only a door that reads the upstream's answer can say it answered (not a tool's result).
        if (door.read !== undefined) noteAnswered(value, call);
        return value;
      }
      const told = (await pending) ?? NOTHING;
      if (told.spent !== undefined) await this.spent(told.spent, told, a, b, call);
      const throttle = told.throttle;
      if (throttle === undefined) {
        noteAnswered(value, call);
        return value;
      }
      const retried = this.#retried(throttle, told, attempt, a, b, call);
      if (retried === true || (retried !== false && (await retried))) {
        door.dropped?.(value);
        continue;
      }
      if (door.answer !== undefined) return this.#final(throttle, told, value, a, b, call);
      const remembered = this.#ended(throttle, told, a, b, call);
      if (remembered !== undefined) await remembered;
      noteThrottle(throttle, call, this.#credentials(told, a, b));
      throw throttle;
    }
  }

  /**
   * A throttle a door saw, for a door that reads answers itself (the interceptor): published,
   * told to the call in progress, remembered in the background.
   */
  throttled(
    throttle: UpstreamRateLimitedError,
    a: A,
    b: B,
    credentials: () => Credentials,
    call?: CallNotes,
  ): void {
    this.seen(throttle, call, credentials);
    const cooldown = this.#cooldownFor(call);
    if (cooldown !== undefined)
      rememberThrottle(cooldown, this.#lookup(cooldown, a, b, credentials), throttle).catch(
        () => {},
      );
  }

  /** A throttle a door saw, without a cooldown to remember it in: published and told. */
  seen(
    throttle: UpstreamRateLimitedError,
    call?: CallNotes,
    credentials?: (() => Credentials) | undefined,
  ): void {
    this.#publish(throttle, undefined);
    noteThrottle(throttle, call, credentials);
  }

  /** The upstream answered without a throttle, with this status. */
  answered(status: number, call?: CallNotes): void {
    noteAnswered(status, call);
  }

  /** Reports a spent quota a successful answer announced, and remembers it until its reset. */
  spent(
    spent: UpstreamRateLimitedError,
    told: Outcome,
    a: A,
    b: B,
    call?: CallNotes,
  ): Promise<void> {
    const cooldown = this.#cooldownFor(call);
    if (cooldown === undefined) return Promise.resolve();
    reportPreempt(this.#onEvent, spent, told.status ?? 429, this.#door.source);
    return cooldown.remember(this.#lookup(cooldown, a, b, told.credentials), spent);
  }

  /**
   * Waits out a short throttle when the door's `retry` allows, and says so: `true` when the
   * call is to be sent again. The throttle is remembered before the wait, so other callers of
   * the partition are answered meanwhile; a `retry` event is published only once the wait is
   * over and the retry is about to be sent (an aborted wait sends none).
   */
  #retried(
    throttle: UpstreamRateLimitedError,
    told: Outcome,
    attempt: number,
    a: A,
    b: B,
    call: CallNotes,
  ): boolean | Promise<boolean> {
    this.#publish(throttle, told);
    const door = this.#door;
    // No retry to consider: answered at once, without a promise and its turn of the loop.
    if (this.#retry === undefined || door.resend === undefined) return false;
    const resend = door.resend(a, b);
    const wait = this.#retry.waitFor(throttle, attempt, resend.method, resend.replayable);
    if (wait === undefined) return false;
    const cooldown = this.#cooldownFor(call);
    if (cooldown !== undefined) {
      const lookup = this.#lookup(cooldown, a, b, told.credentials);
      void rememberThrottle(cooldown, lookup, throttle).catch(() => {});
    }
    return this.#waited(throttle, attempt, wait, resend.signal);
  }

  /** The retry's wait, then its `retry` event. */
  async #waited(
    throttle: UpstreamRateLimitedError,
    attempt: number,
    wait: number,
    signal: AbortSignal | null | undefined,
  ): Promise<boolean> {
    await sleep(wait, signal);
    emitEvent(this.#onEvent, retryEvent(throttle, this.#door.source, attempt + 1, wait));
    return true;
  }

  /**
   * The call ends on this throttle: what the door makes of it, remembered, told. (A door that
   * throws has its throttle thrown by `run` itself: one async function rejecting, not two.)
   */
  async #final(
    throttle: UpstreamRateLimitedError,
    told: Outcome,
    met: unknown,
    a: A,
    b: B,
    call: CallNotes,
  ): Promise<R> {
    // The door's answer first: one that cannot be made (a hostile copy of the error class)
    // leaves the caller's own error to go on, and nothing remembered.
    const answer = await (this.#door.answer as NonNullable<Door<A, B, R>["answer"]>)(throttle, met);
    const remembered = this.#ended(throttle, told, a, b, call);
    if (remembered !== undefined) await remembered;
    noteThrottle(throttle, call, this.#credentials(told, a, b));
    return answer;
  }

  /** How to find the credentials of the request a throttle answered (made on throttles only). */
  #credentials(told: Outcome, a: A, b: B): () => Credentials {
    return told.credentials ?? (() => this.#door.credentials(a, b));
  }

  /** Remembers the throttle a call ended on, when there is a cooldown: else nothing to wait for. */
  #ended(
    throttle: UpstreamRateLimitedError,
    told: Outcome,
    a: A,
    b: B,
    call: CallNotes,
  ): Promise<void> | undefined {
    const cooldown = this.#cooldownFor(call);
    if (cooldown === undefined || told.remembered === true) return undefined;
    return rememberThrottle(cooldown, this.#lookup(cooldown, a, b, told.credentials), throttle);
  }

  #answer(active: UpstreamRateLimitedError, met: unknown): R | Promise<R> {
    if (this.#door.answer === undefined) throw active;
    return this.#door.answer(active, met);
  }

  #publish(throttle: UpstreamRateLimitedError, told: Outcome | undefined): void {
    if (told?.reported !== true)
      emitEvent(this.#onEvent, throttleEvent(throttle, this.#door.source));
  }

  /** A remembered throttle found for this call: the error it answers with, published, told. */
  #hit(
    found: ActiveCooldown | undefined,
    lookup: CooldownLookup,
    call: CallNotes | undefined,
  ): UpstreamRateLimitedError | undefined {
    if (found === undefined) return undefined;
    const host = lookup.host?.();
    const error = errorFromCooldown(found, host);
    markRemembered(error);
    emitEvent(this.#onEvent, cooldownHitEvent(error, found.remainingMs, this.#door.source));
    const credentials = lookup.credentials;
    noteThrottle(error, call, credentials && (() => credentials.call(lookup)));
    return error;
  }

  /**
   * The door's own cooldown, else the one of the server the call belongs to (`throttleServer`'s
   * `cooldown`): a door without one still answers from the server's.
   */
  #cooldownFor(call: CallNotes | undefined): Cooldown | undefined {
    if (this.cooldown !== undefined) return this.cooldown;
    const shared = call?.cooldown;
    return shared instanceof Cooldown ? shared : undefined;
  }

  #lookup(
    cooldown: Cooldown,
    a: A,
    b: B,
    credentials: (() => Credentials) | undefined,
  ): CooldownLookup {
    return cooldown.lookup(new DoorCall(this.#limit, this.#door, a, b, credentials));
  }
}
