// Node's fetch (and undici's `request`) sends every request through the dispatcher stored on
// `globalThis` under undici's registered symbol, looked up per request: so a `fetch` an SDK kept
// at import still passes here. The observer changes nothing of what the caller receives; it
// tells the tool call that made the request (found when the request is dispatched, because
// the response's callbacks run in the socket's context, not the caller's) what came back.

import { type CallRecord, callScope } from "../internal/call-scope.js";
import { urlHost } from "../internal/url-host.js";
import { mayBeThrottle } from "../signals/detect.js";
import { dispatchCredentials } from "../untrusted/credentials.js";
import { dispatchRequestText } from "../untrusted/request-text.js";
import type { ThrottleSettings } from "../wrappers/settings.js";
import { throttleFromWire } from "../wrappers/wire.js";

const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");
/** The body bytes kept for detection, as the other doors read (design: 64 KiB). */
const BODY_CAP = 64 * 1024;

type Dispatcher = { dispatch: (opts: DispatchOpts, handler: object) => unknown };
type DispatchOpts = { origin?: string | URL; headers?: unknown; [key: string]: unknown };
type Slot = Record<symbol, unknown>;

/** The observer in force: what it wraps, and how to wrap a dispatcher set after it. */
let active: { proxy: unknown; inner: Dispatcher; wrap: (inner: Dispatcher) => unknown } | undefined;

/** Observes the global dispatcher; returns the function that puts the original back. */
export function observeGlobalDispatcher(
  settings: ThrottleSettings,
  fetchFn: typeof fetch,
): () => void {
  const slot = globalThis as unknown as Slot;
  if (slot[GLOBAL_DISPATCHER] === undefined) loadUndici(fetchFn);
  const inner = slot[GLOBAL_DISPATCHER] as Dispatcher | undefined;
  if (typeof inner?.dispatch !== "function") return () => {};
  const wrap = (target: Dispatcher) => observing(target, settings);
  const mine = { proxy: wrap(inner), inner, wrap };
  try {
    slot[GLOBAL_DISPATCHER] = mine.proxy;
  } catch {
    return () => {};
  }
  active = mine;
  return () => {
    if (active === mine) active = undefined;
    // The dispatcher in force goes back: a later one the observer took up stays the later one.
    if (slot[GLOBAL_DISPATCHER] === mine.proxy) slot[GLOBAL_DISPATCHER] = mine.inner;
  };
}

/**
 * Observes again a global dispatcher set after the install (`setGlobalDispatcher(new Agent())`,
 * a proxy agent): asked at the start of every adopted tool call, one property read when nothing
 * changed. A dispatcher given to one request (`fetch(url, { dispatcher })`) is not the global one:
 * compose `throttleInterceptor` on it.
 */
export function observeLaterDispatcher(): void {
  if (active === undefined) return;
  const slot = globalThis as unknown as Slot;
  const now = slot[GLOBAL_DISPATCHER] as Dispatcher | undefined;
  if (now === active.proxy || typeof now?.dispatch !== "function") return;
  try {
    const proxy = active.wrap(now);
    slot[GLOBAL_DISPATCHER] = proxy;
    active.proxy = proxy;
    active.inner = now;
  } catch {
    // A slot that cannot be written: the requests through it are not observed.
  }
}

/** A dispatcher whose dispatches, inside a tool call, are observed for that call. */
function observing(inner: Dispatcher, settings: ThrottleSettings): unknown {
  const dispatch = (opts: DispatchOpts, handler: object) => {
    const record = callScope().current();
    if (record === undefined || typeof handler !== "object" || handler === null)
      return inner.dispatch(opts, handler);
    return inner.dispatch(opts, observed(handler, opts, record, settings));
  };
  return new Proxy(inner, {
    get(target, key) {
      if (key === "dispatch") return dispatch;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Node loads its undici, and sets the global dispatcher, on the first `fetch` call, at once:
 * a `data:` URL loads it without any request leaving the process.
 */
function loadUndici(fetchFn: typeof fetch): void {
  try {
    fetchFn("data:,").catch(() => {});
  } catch {
    // A runtime whose fetch has no undici under it: `globalThis.fetch` is patched alone.
  }
}

/**
 * The caller's handler, seen through: undici 6's callbacks (`onHeaders`, `onData`,
 * `onComplete`) and undici 7's (`onResponseStart`, `onResponseData`, `onResponseEnd`) alike.
 */
export function observed(
  handler: object,
  opts: DispatchOpts,
  record: CallRecord,
  settings: ThrottleSettings,
): object {
  let status = 0;
  let headers: Record<string, string> = {};
  let chunks: Uint8Array[] | undefined;
  let kept = 0;
  const start = (code: unknown, raw: unknown) => {
    status = typeof code === "number" ? code : 0;
    if (status < 400) record.answered();
    else if (mayBeThrottle(status)) {
      headers = headerRecord(raw);
      chunks = [];
    }
  };
  const data = (chunk: unknown) => {
    if (chunks === undefined || !(chunk instanceof Uint8Array) || kept >= BODY_CAP) return;
    chunks.push(chunk.subarray(0, BODY_CAP - kept));
    kept += Math.min(chunk.length, BODY_CAP - kept);
  };
  const end = () => {
    if (chunks === undefined) return;
    const body = new TextDecoder().decode(concat(chunks, kept));
    chunks = undefined;
    const request = {
      host: urlHost(opts.origin),
      credentials: () => dispatchCredentials(opts as never, settings.credentials),
      text: () => dispatchRequestText(opts),
    };
    const error = throttleFromWire({ status, headers, body }, request, settings);
    if (error !== undefined) record.throttle(error);
  };
  const taps: Record<string, (args: unknown[]) => void> = {
    onHeaders: (args) => start(args[0], args[1]),
    onResponseStart: (args) => start(args[1], args[2]),
    onData: (args) => data(args[0]),
    onResponseData: (args) => data(args[1]),
    onComplete: end,
    onResponseEnd: end,
  };
  return new Proxy(handler, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      const tap = typeof key === "string" ? taps[key] : undefined;
      if (tap === undefined || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        try {
          tap(args);
        } catch {
          // Observation never breaks a request.
        }
        return value.apply(target, args);
      };
    },
  });
}

/** Response headers as undici hands them: a flat array of name, value (buffers), or a record. */
function headerRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: unknown, value: unknown) => {
    const key = String(name).toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(", ") : String(value);
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  };
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i], raw[i + 1]);
  } else if (typeof raw === "object" && raw !== null) {
    for (const [name, value] of Object.entries(raw)) if (value !== undefined) add(name, value);
  }
  return out;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
