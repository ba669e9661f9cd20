// What a door tells the guarded call about its calls: how to send one, how to read what came
// back, and what a throttle becomes. Every function is made once, at construction.

import type { CooldownOption, LookupCall } from "../cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import type { EventSource, ThrottleEventHook } from "../observability/events.js";
import type { Credentials } from "../untrusted/credentials.js";
import type { RetryPolicy } from "./retry.js";

/** What a call's answer told, once it was worth reading. */
export interface Outcome {
  /** The throttle the call met. */
  throttle?: UpstreamRateLimitedError | undefined;
  /** A spent quota a successful answer announced, to remember until its reset. */
  spent?: UpstreamRateLimitedError | undefined;
  /** The answer's status, for the `preempt` event. */
  status?: number | undefined;
  /** The credentials gathered to read the answer, kept for the cooldown's lookup. */
  credentials?: (() => Credentials) | undefined;
  /** The throttle's event was already published, by the door that made the error. */
  reported?: boolean | undefined;
  /** The throttle was already remembered, by the door that saw the upstream's request. */
  remembered?: boolean | undefined;
}

/** How a call may be sent again. */
export interface Resend {
  method: string;
  replayable: boolean;
  signal: AbortSignal | null | undefined;
}

/**
 * What a door knows of its calls, which take two arguments (`input, init`; `args`; `opts,
 * origin`). Every function is made once, at construction: none is built per call.
 */
export interface Door<A, B, R> {
  /** The door's name in events. */
  readonly source: EventSource;
  /** The host a call asks for (never a redirect's): the scope without a limit, and events. */
  host(a: A, b: B): string | undefined;
  /** The credentials of a call: its default partition, and what stored names are checked against. */
  credentials(a: A, b: B): Credentials;
  /** The author's `cooldown.partition`, bound to the call's arguments. */
  readonly partition?: ((a: A, b: B) => string | undefined) | undefined;
  /** Makes the call. */
  send?(a: A, b: B): R | Promise<R>;
  /** What came back: `undefined` at once when it is certainly no throttle (the success path). */
  read?(value: R, a: A, b: B): Promise<Outcome | undefined> | undefined;
  /** What a thrown error tells; without it, or when it tells nothing, the error is rethrown. */
  caught?(error: unknown, a: A, b: B): Promise<Outcome | undefined>;
  /**
   * What a throttle becomes: `met` is what the call gave back (its value, or the error it
   * threw), `undefined` for a cooldown hit. Without it, the throttle is thrown.
   */
  answer?(throttle: UpstreamRateLimitedError, met: unknown): R | Promise<R>;
  /** How a call may be sent again; without it, nothing is retried. */
  resend?(a: A, b: B): Resend;
  /** Lets go of what a call gave back before it is sent again (a throttled body left unread). */
  dropped?(value: R): void;
}

/** The settings the guarded call needs of the door's options. */
export interface GuardSettings {
  limit: string | undefined;
  maxRetryAfterSeconds: number;
  onEvent: ThrottleEventHook | undefined;
  cooldown?: CooldownOption<unknown> | undefined;
  retry?: RetryPolicy | undefined;
}

/** What a door says of one call's partition. */
type CallParts<A, B> = Pick<Door<A, B, unknown>, "host" | "credentials" | "partition">;

/** One call of a door, as the cooldown's lookup asks for it: nothing is bound per call. */
export class DoorCall<A, B> implements LookupCall {
  readonly limit: string | undefined;
  readonly #door: CallParts<A, B>;
  readonly #a: A;
  readonly #b: B;
  /** Credentials gathered already, to read the answer: reused, not gathered again. */
  readonly #given: (() => Credentials) | undefined;

  constructor(
    limit: string | undefined,
    door: CallParts<A, B>,
    a: A,
    b: B,
    given: (() => Credentials) | undefined,
  ) {
    this.limit = limit;
    this.#door = door;
    this.#a = a;
    this.#b = b;
    this.#given = given;
  }

  host(): string | undefined {
    return this.#door.host(this.#a, this.#b);
  }

  credentials(): Credentials {
    return this.#given === undefined ? this.#door.credentials(this.#a, this.#b) : this.#given();
  }

  /** The author's `cooldown.partition` for this call, when there is one. */
  get partition(): (() => string | undefined) | undefined {
    const custom = this.#door.partition;
    return custom && (() => custom(this.#a, this.#b));
  }
}
