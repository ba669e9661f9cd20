// Option checks shared by every entry point: one message per mistake, naming the option.

export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 86_400;

/** The clamp of SEP-3304 RL-8, checked. */
export function maxRetryAfterSeconds(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RETRY_AFTER_SECONDS;
  return nonNegative("maxRetryAfterSeconds", value);
}

export function nonNegative(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`\`${name}\` must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}

export function limitName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`\`limit\` must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Options shared by every wrapper that detects throttles on the wire. */
export interface ThrottleOptions {
  /** Name of the limit these calls count against. @default the upstream's own name, else its host */
  limit?: string;
  /** Delay to report when the upstream gives none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number;
  /** Longest delay reported; longer ones are clamped (SEP-3304 RL-8). @default 86400 */
  maxRetryAfterSeconds?: number;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean;
  /** Longest time spent reading a throttled response's body, in milliseconds. @default 1000 */
  bodyTimeoutMs?: number;
}

export interface ThrottleSettings {
  limit: string | undefined;
  defaultRetryAfterSeconds: number | undefined;
  maxRetryAfterSeconds: number;
  treat503AsThrottle: boolean;
  bodyTimeoutMs: number;
}

export const DEFAULT_BODY_TIMEOUT_MS = 1000;

/** Checks the options once, at construction, and fills in the defaults. */
export function throttleSettings(options: ThrottleOptions): ThrottleSettings {
  const { defaultRetryAfterSeconds, bodyTimeoutMs } = options;
  return {
    limit: limitName(options.limit),
    defaultRetryAfterSeconds:
      defaultRetryAfterSeconds === undefined
        ? undefined
        : nonNegative("defaultRetryAfterSeconds", defaultRetryAfterSeconds),
    maxRetryAfterSeconds: maxRetryAfterSeconds(options.maxRetryAfterSeconds),
    treat503AsThrottle: options.treat503AsThrottle ?? false,
    bodyTimeoutMs:
      bodyTimeoutMs === undefined
        ? DEFAULT_BODY_TIMEOUT_MS
        : nonNegative("bodyTimeoutMs", bodyTimeoutMs),
  };
}
