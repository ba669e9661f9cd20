// Whether the caller of a door took up what the door answered: a request a tool sends and never
// awaits (`void fetch(…)`, fire and forget) settles nothing of the tool call's answer, whatever
// it meets. The door's promise says when anyone took it up (`await`, `then`, `catch`,
// `Promise.all` all call `then`), at no cost to a door whose call no one listens to.

/** One request of a door, as the call it belongs to hears of it. */
export interface SentRequest {
  /** Whether the caller took up the door's answer (its promise's `then` was called). */
  consumed: boolean;
}

/** A promise that marks its request consumed when its `then` is first called. */
class Watched<T> extends Promise<T> {
  sent: SentRequest | undefined;

  // biome-ignore lint/suspicious/noThenProperty: a Promise's own then, overridden on purpose: it is how a caller taking up the answer is seen.
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    if (this.sent !== undefined) this.sent.consumed = true;
    return super.then(onFulfilled, onRejected);
  }

  // What `then` makes is a plain promise: only the door's own answer is watched.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }
}

/** `promise`, as a promise that marks `sent` consumed when it is taken up. */
export function watchedPromise<T>(promise: Promise<T>, sent: SentRequest): Promise<T> {
  const watched = new Watched<T>((resolve, reject) => {
    promise.then(resolve, reject);
  });
  watched.sent = sent;
  return watched;
}
