// Test-only oracle: the regular-expression reader of Go durations, as it stood before the char
// scanner of src/signals/vendor-resets.ts replaced it (issue 23). The scanner must give exactly
// its answers (test/signals/scanners.test.ts).

const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_PART = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g;
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export function parseGoDurationByRegex(text: string): number | undefined {
  const trimmed = text.trim();
  if (!GO_DURATION.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(GO_PART)) {
    ms += Number(amount) * (UNIT_MS[unit ?? ""] ?? Number.NaN);
  }
  return Number.isFinite(ms) ? Math.ceil(ms) : undefined;
}

/** `/^\d+(?:\.\d+)?$/`, the decimal rule `isDecimal` replaced. */
export const DECIMAL_BY_REGEX = /^\d+(?:\.\d+)?$/;
