// The regular-expression plainHost that src/internal/url-host.ts replaced with one scan of the
// text (issue 23): kept as the oracle the scan is held equal to.

/** `scheme://host[:port]` followed by the path, query, fragment or the end. */
const SIMPLE = /^https?:\/\/([a-z0-9.-]{1,253})(?::(\d{1,5}))?(?=[/?#]|$)/;
/** A dotted-decimal IPv4 address the parser leaves as it is (no leading zeros, each ≤ 255). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The hostname `new URL(text).hostname` gives, when it is certain without parsing; else `null`.
 * A name is certain when its labels are non-empty lower-case letters, digits and inner hyphens,
 * none is punycode, and the last starts with a letter (a numeric last label makes an IPv4 form).
 */
export function plainHostByRegex(text: string): string | null {
  const match = SIMPLE.exec(text);
  const host = match?.[1];
  if (host === undefined || Number(match?.[2] ?? 0) > 65535) return null;
  if (IPV4.test(host)) return host;
  const labels = host.split(".");
  const last = labels[labels.length - 1] ?? "";
  if (!/^[a-z]/.test(last)) return null;
  for (const label of labels) {
    if (label === "" || label.startsWith("-") || label.endsWith("-") || label.startsWith("xn--"))
      return null;
  }
  return host;
}
