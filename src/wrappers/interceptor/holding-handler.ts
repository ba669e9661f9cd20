// What both of the interceptor's handlers share: a response held back (its status line, headers
// and body chunks, within a byte cap and a time bound) until the handler can tell whether it is a
// throttle, then either replayed downstream whole or dropped for the throttle's error.

import { concatBytes } from "../../internal/bytes.js";
import { BODY_CAP_BYTES } from "../read-body.js";
import type { DispatchController, DispatchHandler, ResponseHeaders } from "./dispatch.js";

export abstract class HoldingHandler implements DispatchHandler {
  protected readonly next: DispatchHandler;
  protected status = 0;
  protected headers: ResponseHeaders = {};
  protected statusMessage: string | undefined;
  protected size = 0;
  #chunks: Uint8Array[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(next: DispatchHandler) {
    this.next = next;
  }

  onRequestUpgrade(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    socket: unknown,
  ): void {
    this.next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  /** Starts holding a response: its head is kept for the replay. */
  protected hold(
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage: string | undefined,
  ): void {
    this.status = statusCode;
    this.headers = headers;
    this.statusMessage = statusMessage;
  }

  /** Bounds the wait for the body: `timedOut` runs after `ms` unless cleared first. */
  protected startTimer(ms: number, timedOut: () => void): void {
    this.#timer = setTimeout(timedOut, ms);
  }

  /** Keeps a chunk; `true` once more than the cap is held (it cannot be read whole). */
  protected keep(chunk: Uint8Array): boolean {
    this.#chunks.push(chunk);
    this.size += chunk.byteLength;
    return this.size > BODY_CAP_BYTES;
  }

  /** The bytes held, at most `limit` of them; `undefined` when none. */
  protected held(limit = this.size): Uint8Array | undefined {
    const size = Math.min(this.size, limit);
    return size === 0 ? undefined : concatBytes(this.#chunks, size);
  }

  /** Hands the held head and chunks downstream, as they came. */
  protected replay(controller: DispatchController): void {
    this.next.onResponseStart?.(controller, this.status, this.headers, this.statusMessage);
    for (const chunk of this.#chunks) this.next.onResponseData?.(controller, chunk);
    this.#chunks = [];
  }

  /** Lets go of what is held (a new attempt, an error, a throttle), and of the timer. */
  protected drop(): void {
    this.clearTimer();
    this.#chunks = [];
    this.size = 0;
  }

  protected clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
