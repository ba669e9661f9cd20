/** Headers as fetch, node:http and the vendor SDKs hand them over. */
export type HeaderInput =
  | Headers
  | Map<string, unknown>
  | Record<string, string | string[] | number | undefined | null>;

/** Case-insensitive, never-throwing header lookup; repeated fields are joined with ", ". */
export interface HeaderReader {
  get(name: string): string | undefined;
  has(name: string): boolean;
}

const EMPTY: HeaderReader = { get: () => undefined, has: () => false };

export function readHeaders(input: unknown): HeaderReader {
  if (typeof Headers !== "undefined" && input instanceof Headers) {
    return { get: (name) => input.get(name) ?? undefined, has: (name) => input.has(name) };
  }
  if (input instanceof Map) return fromEntries(input.entries());
  if (typeof input === "object" && input !== null) return fromEntries(Object.entries(input));
  return EMPTY;
}

function fromEntries(entries: Iterable<[unknown, unknown]>): HeaderReader {
  const map = new Map<string, string>();
  for (const [key, raw] of entries) {
    if (typeof key !== "string") continue;
    const value = headerValue(raw);
    if (value === undefined) continue;
    const name = key.toLowerCase();
    const previous = map.get(name);
    map.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  return { get: (name) => map.get(name), has: (name) => map.has(name) };
}

function headerValue(raw: unknown): string | undefined {
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (Array.isArray(raw)) {
    const parts = raw.filter((part): part is string => typeof part === "string");
    return parts.length > 0 ? parts.join(", ") : undefined;
  }
  return undefined;
}
