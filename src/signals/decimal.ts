// The plain decimal numbers upstreams write in their rate-limit fields (`120`, `0.0`, `1.5`): one
// or more ASCII digits, then at most one `.` and one or more digits; no sign, exponent, unit or
// space. Read by a scan rather than a regular expression: it runs on every detection, several
// times (test/signals/scanners.test.ts holds it equal to `/^\d+(?:\.\d+)?$/`).

/** Whether `text` is a plain decimal number: `\d+(?:\.\d+)?`, the whole of it. */
export function isDecimal(text: string): boolean {
  const length = text.length;
  let i = 0;
  while (i < length && isDigit(text.charCodeAt(i))) i += 1;
  if (i === 0) return false;
  if (i === length) return true;
  if (text.charCodeAt(i) !== 0x2e || i + 1 === length) return false;
  for (i += 1; i < length; i += 1) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
