// The bounded body read of the throttle path (the tool authors' guide, "The body read"): at most
// `maxBytes`, within `timeoutMs`, honouring the caller's AbortSignal. A body that ends within the
// cap is read to its end, so a keep-alive socket goes back to its pool; a longer one is cancelled.

import { concatBytes } from "../internal/bytes.js";
import { throttleVerdict } from "../signals/detect.js";
import { type HeaderReader, readHeaders } from "../signals/headers.js";

export const BODY_CAP_BYTES = 64 * 1024;

export interface BoundedBody {
  text: string;
  /** Whether the whole body was read. */
  complete: boolean;
}

export interface ReadLimits {
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal | null | undefined;
}

/** One decoder for every read: `decode` without `stream` keeps no state between calls. */
const decoder = new TextDecoder();

/** Whether a body of this type can hold a delay hint or a message worth reading. */
export function isTextual(contentType: string | null): boolean {
  if (contentType === null) return true;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon))
    .trim()
    .toLowerCase();
  return (
    type === "" || type.startsWith("text/") || type.endsWith("/json") || type.endsWith("+json")
  );
}

export interface ThrottleReadOptions {
  treat503AsThrottle: boolean;
  timeoutMs: number;
  signal?: AbortSignal | null | undefined;
}

/**
 * Reads what detection needs of a response that may be a throttle. Returns `undefined` when
 * its status and headers already say it is none (nothing is read). When only the body can
 * tell, a copy is read (`fromCopy`), so a response that turns out to be no throttle stays
 * whole for its caller, and one that is a throttle must then be cancelled by the caller; when
 * the headers already say "throttle", the body itself is read (or cancelled). The headers come
 * back as read, for detection to go on with.
 */
export async function readThrottleBody(
  response: Response,
  { treat503AsThrottle, timeoutMs, signal }: ThrottleReadOptions,
): Promise<{ body: string | undefined; fromCopy: boolean; headers: HeaderReader } | undefined> {
  // Read once: each `get` of a fetch Headers is a WebIDL call, its entries are read in one go.
  const headers = readHeaders(response.headers);
  const verdict = throttleVerdict(response.status, headers, treat503AsThrottle);
  const type = headers.get("content-type") ?? null;
  const declared = Number(headers.get("content-length") ?? Number.NaN);
  if (verdict === "no" || (verdict === "body" && !bodyMayTell(response.status, type, declared))) {
    return undefined;
  }
  const fromCopy = verdict !== "yes";
  const source = fromCopy ? response.clone() : response;
  const read = await readBoundedBody(
    source,
    { maxBytes: BODY_CAP_BYTES, timeoutMs, signal },
    { type, declared },
  );
  return { body: usableText(read), fromCopy, headers };
}

/**
 * Whether a body can settle a "depends on the body" verdict: a JSON body may hold an MCP
 * server's rate-limit code or a vendor's envelope; GitHub's 403 says so in any text. A body
 * declared larger than the cap is not worth holding back.
 */
export function bodyMayTell(
  status: number,
  contentType: string | null,
  declaredLength: number,
): boolean {
  if (declaredLength > BODY_CAP_BYTES) return false;
  if (status === 403) return isTextual(contentType);
  return contentType !== null && isTextual(contentType) && /json/i.test(contentType);
}

/** A body cut short is still a message if it is plain text; half a JSON document is not. */
export function usableText(body: BoundedBody | undefined): string | undefined {
  if (body === undefined) return undefined;
  return body.complete || !/^\s*[{[]/.test(body.text) ? body.text : undefined;
}

/**
 * Reads what the throttle path needs of a response body. Returns `undefined` when the body is
 * absent, declared larger than the cap, or not text; such a body is cancelled unread.
 * Rejects only with the caller's abort reason. Not an async function: the read's own promise
 * is handed back, without one more promise and turn around it.
 */
export function readBoundedBody(
  response: Response,
  limits: ReadLimits,
  // The two headers, when the caller has read them already.
  known?: { type: string | null; declared: number },
): Promise<BoundedBody | undefined> {
  try {
    const body = response.body;
    if (body === null) return Promise.resolve(undefined);
    const declared =
      known?.declared ?? Number(response.headers.get("content-length") ?? Number.NaN);
    const type = known === undefined ? response.headers.get("content-type") : known.type;
    if (declared > limits.maxBytes || !isTextual(type)) {
      return body.cancel().then(nothing, nothing);
    }
    // Read to its end, the body hands its socket back to the pool as a raw read does: undici
    // waits one macrotask before reusing it, so a caller that calls again at once may open one
    // more connection, as a raw `fetch` does. Waiting here for that cost ~6 % of a throttled
    // call, and up to 15 % with 16 in flight.
    return readAtMost(body, limits);
  } catch (error) {
    // A response whose getters throw fails as the async read did: a rejection, not a throw.
    return Promise.reject(error);
  }
}

const nothing = (): undefined => undefined;

async function readAtMost(
  body: ReadableStream<Uint8Array>,
  { maxBytes, timeoutMs, signal }: ReadLimits,
): Promise<BoundedBody> {
  signal?.throwIfAborted();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  // The time bound and the caller's abort cancel the reader, which ends the pending read (as
  // done): one timer and one listener for the whole body, no race per read.
  let stopped: "timeout" | "abort" | undefined;
  const stop = (why: "timeout" | "abort") => {
    stopped ??= why;
    reader.cancel().catch(() => {});
  };
  const timer = setTimeout(stop, timeoutMs, "timeout");
  const onAbort = () => stop("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const next = await reader.read();
      if (stopped !== undefined) break;
      if (next.done) {
        complete = true;
        break;
      }
      const room = maxBytes - size;
      chunks.push(next.value.byteLength > room ? next.value.subarray(0, room) : next.value);
      size += Math.min(next.value.byteLength, room);
      if (next.value.byteLength > room) break;
    }
  } catch {
    // A body that breaks off (connection reset) still leaves its headers to go by, unless the
    // caller aborted.
    if (signal?.aborted) stopped ??= "abort";
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  if (!complete && stopped === undefined) reader.cancel().catch(() => {});
  if (stopped === "abort") throw signal?.reason;
  // A chunk that came with the stop is not counted: what was read by then is the body.
  // A body that came in one chunk (most throttles' bodies) is decoded as it is, not copied.
  const [first] = chunks;
  const data =
    chunks.length === 1 && first !== undefined && first.byteLength === size
      ? first
      : concatBytes(chunks, size);
  return { text: decoder.decode(data), complete };
}
