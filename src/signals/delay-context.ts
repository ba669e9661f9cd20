import type { Echo } from "./echo.js";
import { DATE, RATELIMIT } from "./fields.js";
import type { HeaderReader } from "./headers.js";
import { type ExhaustedPolicy, exhaustedPolicy } from "./ietf.js";
import { httpDateMs } from "./retry-after.js";

/**
 * What every reader gets: the headers, the parsed body, the clock, the upstream's cleaned
 * message (only on a non-2xx throttle: a wait it states is read last), and the two things that
 * cost a parse (the `Date` header, the IETF policy), each parsed on first use, once. The clock
 * too is read on first use: a delta (`Retry-After: 30`, `6m0s`) needs none.
 */
export class DelayContext {
  readonly headers: HeaderReader;
  readonly body: unknown;
  readonly message: string | undefined;
  /** What of the message only echoes the request: no wait is read from there. */
  readonly echo: Echo | undefined;
  #now: number | undefined;
  #serverNow: number | undefined | null = null;
  #policy: ExhaustedPolicy | undefined | null = null;

  /**
   * `now`: the clock in epoch ms; `undefined` to read `Date.now()` when a rule needs it.
   * `message`: the upstream's cleaned message, when a wait it states may be used; `echo`, what
   * of it is the request's own text.
   */
  constructor(
    headers: HeaderReader,
    body: unknown,
    now: number | undefined,
    message?: string,
    echo?: Echo,
  ) {
    this.headers = headers;
    this.body = body;
    this.message = message;
    this.echo = echo;
    this.#now = now;
  }

  /** The clock, in epoch ms. */
  get now(): number {
    this.#now ??= Date.now();
    return this.#now;
  }

  /** The response's `Date` header in epoch ms, when it parses. */
  serverNow(): number | undefined {
    if (this.#serverNow === null) {
      const date = (this.headers.fields & DATE.bit) === 0 ? undefined : this.headers.get("date");
      this.#serverNow = date === undefined ? undefined : httpDateMs(date.trim(), this.now);
    }
    return this.#serverNow;
  }

  /** The exhausted policy of the IETF `RateLimit` field. */
  policy(): ExhaustedPolicy | undefined {
    if (this.#policy === null) {
      this.#policy =
        (this.headers.fields & RATELIMIT.bit) === 0 ? undefined : exhaustedPolicy(this.headers);
    }
    return this.#policy;
  }
}
