/** Headers as fetch, node:http and the vendor SDKs hand them over. */
export type HeaderInput =
  | Headers
  | Map<string, unknown>
  | Record<string, string | string[] | number | undefined | null>;

/** Case-insensitive, never-throwing header lookup; repeated fields are joined with ", ". */
export interface HeaderReader {
  get(name: string): string | undefined;
  has(name: string): boolean;
  /** Every field name, lowercase; read only by the rules that look for a family of names. */
  names(): readonly string[];
}

const EMPTY: HeaderReader = { get: () => undefined, has: () => false, names: () => [] };

export function readHeaders(input: unknown): HeaderReader {
  if (typeof input !== "object" || input === null) return EMPTY;
  // The common case first: a plain object from node:http, undici or an SDK.
  const prototype = Object.getPrototypeOf(input);
  if (prototype === Object.prototype || prototype === null) {
    return fromRecord(input as Record<string, unknown>);
  }
  if (input instanceof Map) return fromEntries(input.entries());
  // A Headers from any fetch implementation (the global one, undici's, node-fetch's) and
  // axios' AxiosHeaders: case-insensitive `get` and `has`. Checked by shape, not instanceof,
  // since undici's own Headers is not the global class.
  if (isHeadersLike(input)) {
    return {
      get: (name) => {
        const value = attempt(() => input.get(name));
        return typeof value === "string" ? value : undefined;
      },
      has: (name) => attempt(() => input.has(name)) === true,
      names: () => attempt(() => headersLikeNames(input)) ?? [],
    };
  }
  return fromRecord(input as Record<string, unknown>);
}

/**
 * A plain object, as node:http, undici and most SDKs hand headers over: usually with lowercase
 * names already, which are then read in place; anything else is folded into a map once.
 */
function fromRecord(record: Record<string, unknown>): HeaderReader {
  for (const key in record) {
    if (Object.hasOwn(record, key) && key !== key.toLowerCase()) {
      return fromEntries(Object.entries(record));
    }
  }
  return new LowercaseRecord(record);
}

class LowercaseRecord implements HeaderReader {
  readonly #record: Record<string, unknown>;

  constructor(record: Record<string, unknown>) {
    this.#record = record;
  }

  get(name: string): string | undefined {
    return Object.hasOwn(this.#record, name) ? headerValue(this.#record[name]) : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  names(): readonly string[] {
    return Object.keys(this.#record);
  }
}

/** The names a Headers (`keys()`) or an AxiosHeaders (`toJSON()`) holds, lowercase. */
function headersLikeNames(input: object): string[] {
  const { keys, toJSON } = input as { keys?: unknown; toJSON?: unknown };
  const names =
    typeof keys === "function"
      ? [...(keys.call(input) as Iterable<unknown>)]
      : typeof toJSON === "function"
        ? Object.keys(toJSON.call(input) as object)
        : [];
  return names
    .filter((name): name is string => typeof name === "string")
    .map((name) => name.toLowerCase());
}

function isHeadersLike(
  value: unknown,
): value is { get(name: string): unknown; has(name: string): unknown } {
  const candidate = value as { get?: unknown; has?: unknown } | null;
  return typeof candidate?.get === "function" && typeof candidate.has === "function";
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
  return {
    get: (name) => map.get(name),
    has: (name) => map.has(name),
    names: () => [...map.keys()],
  };
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

/** A call into someone else's object that must not throw into the detector. */
function attempt<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}
