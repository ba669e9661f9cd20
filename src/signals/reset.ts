// Reset headers (`X-RateLimit-Reset` and friends) say when a window resets, in one of three
// units that providers mix freely. They are told apart by magnitude.

import { isDecimal } from "./decimal.js";

const EPOCH_MS_FLOOR = 1e12; // 2001-09-09 in milliseconds
const EPOCH_S_FLOOR = 1e9; // 2001-09-09 in seconds

/** A reset as the header gave it: an absolute time, or a delta from now. */
export type ResetValue = { epochMs: number } | { deltaMs: number };

/** Reads a reset value as epoch milliseconds, epoch seconds or delta seconds. */
export function parseResetValue(text: string): ResetValue | undefined {
  const trimmed = text.trim();
  let value = wholeNumber(trimmed);
  if (value === -1) {
    if (!isDecimal(trimmed)) return undefined;
    // A value too long for a double is far in the future: clamped downstream, not dropped.
    value = Math.min(Number(trimmed), Number.MAX_SAFE_INTEGER);
  }
  if (value >= EPOCH_MS_FLOOR) return { epochMs: value };
  if (value >= EPOCH_S_FLOOR) return { epochMs: value * 1000 };
  return { deltaMs: Math.ceil(value * 1000) };
}

/**
 * The common reset (whole epoch seconds or milliseconds), summed as it is scanned: up to 15
 * digits, exact in a double, so it is the number `Number` reads. -1 for anything else.
 */
function wholeNumber(text: string): number {
  const length = text.length;
  if (length === 0 || length > 15) return -1;
  let value = 0;
  for (let i = 0; i < length; i += 1) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
