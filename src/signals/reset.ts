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
  if (!isDecimal(trimmed)) return undefined;
  // A value too long for a double is far in the future: clamped downstream, not dropped.
  const value = Math.min(Number(trimmed), Number.MAX_SAFE_INTEGER);
  if (value >= EPOCH_MS_FLOOR) return { epochMs: value };
  if (value >= EPOCH_S_FLOOR) return { epochMs: value * 1000 };
  return { deltaMs: Math.ceil(value * 1000) };
}
