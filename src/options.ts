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
