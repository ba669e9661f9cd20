// Option checks shared by every entry point: one message per mistake, naming the option.
// Everything a caller configures is checked here, once, at construction.

/** `relayUpstreamText`: what of the upstream's own text may reach a result. */
export type UpstreamTextChoice = "sanitized" | "none";

/** The default of `maxRetryAfterSeconds`: a day. Longer delays are clamped to it (SEP-3304). */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 86_400;

/** The longest delay a timer can wait: setTimeout fires at once for anything longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The clamp of SEP-3304 RL-8, checked. */
export function maxRetryAfterSeconds(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_RETRY_AFTER_SECONDS;
  return nonNegative("maxRetryAfterSeconds", value);
}

export function nonNegative(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`\`${name}\` must be a finite number >= 0, got ${describe(value)}`);
  }
  return value;
}

/** A duration a timer waits for: 0 to 2^31−1 milliseconds. */
export function timerMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = nonNegative(name, value);
  if (ms > MAX_TIMER_MS) {
    throw new RangeError(`\`${name}\` must be at most ${MAX_TIMER_MS} ms (2^31-1), got ${ms}`);
  }
  return ms;
}

export function bool(name: string, value: unknown, fallback = false): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new TypeError(`\`${name}\` must be true or false, got ${describe(value)}`);
  }
  return value;
}

export function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") {
    throw new TypeError(`\`${name}\` must be a function, got ${describe(value)}`);
  }
  return value as F;
}

export function stringList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new TypeError(`\`${name}\` must be an array of strings`);
  }
  return value;
}

/** `relayUpstreamText`, checked. */
export function relayUpstreamText(options: { relayUpstreamText?: unknown }): UpstreamTextChoice {
  const value = options.relayUpstreamText;
  if (value === undefined) return "sanitized";
  if (value !== "sanitized" && value !== "none") {
    throw new TypeError(
      `\`relayUpstreamText\` must be "sanitized" or "none", got ${describe(value)}`,
    );
  }
  return value;
}

export function limitName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`\`limit\` must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/** An options argument: an object or nothing. */
export function optionsObject<T extends object>(name: string, value: T | undefined): T {
  if (value === undefined) return {} as T;
  if (typeof value !== "object" || value === null) {
    throw new TypeError(`\`${name}\` must be an object, got ${describe(value)}`);
  }
  return value;
}

/** The default of `bodyTimeoutMs`: a second. */
export const DEFAULT_BODY_TIMEOUT_MS = 1000;

/** A value as an error message shows it: short, and never a thrown getter. */
function describe(value: unknown): string {
  try {
    const text = typeof value === "string" ? JSON.stringify(value) : String(value);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  } catch {
    return typeof value;
  }
}
