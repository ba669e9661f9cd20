import { ALL_FIELDS, nameBits, UPPER_CASE } from "./fields.js";

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
  /** Which known fields may be present: a rule skips a field without its bit. */
  readonly fields: number;
}

const EMPTY: HeaderReader = {
  get: () => undefined,
  has: () => false,
  names: () => [],
  fields: 0,
};

export function readHeaders(input: unknown): HeaderReader {
  if (typeof input !== "object" || input === null) return EMPTY;
  // The common case first: a plain object from node:http, undici or an SDK.
  const prototype = Object.getPrototypeOf(input);
  if (prototype === Object.prototype || prototype === null) {
    return fromRecord(input as Record<string, unknown>);
  }
  // The global Headers (fetch's, and most SDKs' errors): each `get` costs a WebIDL call, so the
  // fields are read once, on first use, by its own iterator (lowercase names, repeated fields
  // joined with ", ", as `get` joins them). Asked before the Map brand: that check throws (an
  // error and its stack) for anything but a Map, which cost a fetch throttle tens of µs in place.
  if (prototype === globalHeaders()?.prototype) return new FetchHeaders(input as Headers);
  // A Map by its brand, not `instanceof`: one from another realm (node:vm, an iframe, a worker's
  // structured clone) has another realm's prototype, and its mixed-case names need folding.
  if (isMap(input)) return fromEntries(mapEntries.call(input));
  // A Headers from any fetch implementation (the global one, undici's, node-fetch's) and
  // axios' AxiosHeaders: case-insensitive `get` and `has`. Checked by shape, not instanceof,
  // since undici's own Headers is not the global class.
  if (isHeadersLike(input)) return shapeReader(input);
  return fromRecord(input as Record<string, unknown>);
}

/**
 * A plain object, as node:http, undici and most SDKs hand headers over: usually with lowercase
 * names already, which are then read in place; anything else is folded into a map once. The
 * names are read once either way, and say which known fields are there.
 */
function fromRecord(record: Record<string, unknown>): HeaderReader {
  let fields = 0;
  for (const key in record) {
    const bits = nameBits(key);
    if ((bits & UPPER_CASE) === 0) fields |= bits;
    else if (Object.hasOwn(record, key)) return fromEntries(Object.entries(record));
  }
  return new LowercaseRecord(record, fields);
}

class LowercaseRecord implements HeaderReader {
  readonly #record: Record<string, unknown>;
  readonly fields: number;

  constructor(record: Record<string, unknown>, fields: number) {
    this.#record = record;
    this.fields = fields;
  }

  get(name: string): string | undefined {
    // Most names asked for are absent: one lookup says so. An inherited value is none.
    const raw = this.#record[name];
    if (raw === undefined || !Object.hasOwn(this.#record, name)) return undefined;
    return headerValue(raw);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  names(): readonly string[] {
    return Object.keys(this.#record);
  }
}

// The global Headers, looked up on first need rather than at import: in Node the global is a
// getter that loads fetch's whole implementation (undici, a third of a cold import).
let fetchHeaders: typeof Headers | null | undefined;
let fetchHeadersEntries: Headers["entries"] | undefined;

function globalHeaders(): typeof Headers | null {
  if (fetchHeaders === undefined) {
    fetchHeaders = typeof Headers === "function" ? Headers : null;
    fetchHeadersEntries = fetchHeaders?.prototype.entries;
  }
  return fetchHeaders;
}

class FetchHeaders implements HeaderReader {
  readonly #headers: Headers;
  #read: HeaderReader | undefined;

  constructor(headers: Headers) {
    this.#headers = headers;
  }

  #reader(): HeaderReader {
    this.#read ??=
      attempt(() => fromFetchEntries(fetchHeadersEntries?.call(this.#headers) ?? [])) ??
      // Not what it claimed to be: a Map given Headers' prototype is read as the Map it is, a
      // proxy lying about its prototype is asked name by name.
      (isMap(this.#headers)
        ? fromEntries(mapEntries.call(this.#headers))
        : shapeReader(this.#headers));
    return this.#read;
  }

  get(name: string): string | undefined {
    return this.#reader().get(name);
  }

  has(name: string): boolean {
    return this.#reader().has(name);
  }

  names(): readonly string[] {
    return this.#reader().names();
  }

  get fields(): number {
    return this.#reader().fields;
  }
}

/** A fetch Headers' own entries: lowercase names and string values already, as WebIDL makes them. */
function fromFetchEntries(entries: Iterable<[string, string]>): HeaderReader {
  const map = new Map<string, string>();
  for (const [name, value] of entries) {
    const previous = map.get(name);
    map.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  return mapReader(map);
}

/** A map of lowercase names to values, and the fields its names say are there. */
function mapReader(map: Map<string, string>): HeaderReader {
  let fields = 0;
  for (const name of map.keys()) fields |= nameBits(name);
  return {
    get: (name) => map.get(name),
    has: (name) => map.has(name),
    names: () => [...map.keys()],
    fields: fields & ~UPPER_CASE,
  };
}

function shapeReader(input: {
  get(name: string): unknown;
  has(name: string): unknown;
}): HeaderReader {
  return {
    get: (name) => {
      const value = attempt(() => input.get(name));
      return typeof value === "string" ? value : undefined;
    },
    has: (name) => attempt(() => input.has(name)) === true,
    names: () => attempt(() => headersLikeNames(input)) ?? [],
    // Its names are not read up front: every rule asks.
    fields: ALL_FIELDS,
  };
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

const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size")?.get;
const mapEntries = Map.prototype.entries;

/** Whether a value is a Map of any realm: only a real Map answers the `size` getter. */
function isMap(value: object): value is Map<unknown, unknown> {
  if (mapSize === undefined) return false;
  try {
    mapSize.call(value);
    return true;
  } catch {
    return false;
  }
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
  return mapReader(map);
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
