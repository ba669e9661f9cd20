// Structured Field Values for HTTP, the List and Dictionary parsers of RFC 9651 §4.2
// (https://www.rfc-editor.org/rfc/rfc9651#section-4.2), which the RateLimit and
// RateLimit-Policy fields are written in. Every item type is checked, so a field fails as a whole
// exactly where the RFC says it does; the types no rate-limit field uses (Byte Sequence, Date,
// Display String) are kept only as a marker of their kind. Pure: a string in, values or
// `undefined` (the field is malformed) out, never a throw.

/** A Token item (RFC 9651 §3.3.4): told apart from a String by its class. */
export class Token {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/** An item of a type no rate-limit field uses: only its kind is kept. */
export interface OtherItem {
  readonly kind: "bytes" | "date" | "display";
}

export type BareItem = number | string | boolean | Token | OtherItem;
export type Parameters = Map<string, BareItem>;
export type Item = [value: BareItem, params: Parameters];
export type Member = Item | [value: Item[], params: Parameters];

/** The members of a List field, or `undefined` when it is malformed. */
export function parseList(input: string): Member[] | undefined {
  return parse(input, () => {
    const members: Member[] = [];
    while (!done()) {
      members.push(member());
      if (endOfMember()) break;
    }
    return members;
  });
}

/** The members of a Dictionary field by key (a later key wins), or `undefined` when malformed. */
export function parseDictionary(input: string): Map<string, Member> | undefined {
  return parse(input, () => {
    const members = new Map<string, Member>();
    while (!done()) {
      const name = key();
      members.set(name, take(0x3d) ? member() : [true, parameters()]);
      if (endOfMember()) break;
    }
    return members;
  });
}

const FAIL = Symbol("malformed");

// The field being read and the cursor in it. A parse is synchronous and calls nothing outside
// this module, so one pair serves every parse; as module variables (not fields of a reader
// object) they take one letter each in a minified bundle.
let text = "";
let at = 0;

function parse<T>(input: string, read: () => T): T | undefined {
  text = input;
  at = 0;
  try {
    skip(false);
    return read();
  } catch (error) {
    if (error === FAIL) return undefined;
    throw error;
  } finally {
    text = "";
  }
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isLower = (code: number) => code >= 0x61 && code <= 0x7a;
const isAlpha = (code: number) => isLower(code | 0x20);
const inSet = (set: string, code: number) => code > 0 && set.includes(String.fromCharCode(code));
const isKeyChar = (code: number) => isLower(code) || isDigit(code) || inSet("_-.*", code);
const isTokenChar = (code: number) =>
  isAlpha(code) || isDigit(code) || inSet("!#$%&'*+-.^_`|~:/", code);
const BASE64 = /^[A-Za-z0-9+/]*$/;
const PADDED = /^[A-Za-z0-9+/]*={1,2}$/;

const done = () => at >= text.length;
/** The code of the character at the cursor (NaN at the end). */
const peek = () => text.charCodeAt(at);

/** Steps over `code` when it stands at the cursor. */
function take(code: number): boolean {
  if (peek() !== code) return false;
  at += 1;
  return true;
}

/** Skips spaces, and tabs too when `tabs` (OWS). */
function skip(tabs: boolean): void {
  for (let code = peek(); code === 0x20 || (tabs && code === 0x09); code = peek()) at += 1;
}

/** After a member: whether the field ends here, else steps over the comma before the next. */
function endOfMember(): boolean {
  skip(true);
  if (done()) return true;
  if (!take(0x2c)) throw FAIL;
  skip(true);
  if (done()) throw FAIL; // a trailing comma
  return false;
}

function member(): Member {
  if (!take(0x28)) return [bareItem(), parameters()];
  const items: Item[] = [];
  for (;;) {
    skip(false);
    if (take(0x29)) return [items, parameters()];
    if (done()) throw FAIL;
    items.push([bareItem(), parameters()]);
    const next = peek();
    if (next !== 0x20 && next !== 0x29) throw FAIL;
  }
}

function parameters(): Parameters {
  const params: Parameters = new Map();
  while (take(0x3b)) {
    skip(false);
    const name = key();
    params.set(name, take(0x3d) ? bareItem() : true);
  }
  return params;
}

function key(): string {
  const start = at;
  const code = peek();
  if (!isLower(code) && code !== 0x2a) throw FAIL;
  at += 1;
  while (isKeyChar(peek())) at += 1;
  return text.slice(start, at);
}

function bareItem(): BareItem {
  const code = peek();
  if (code === 0x2d || isDigit(code)) return number(false);
  if (code === 0x22) return string();
  if (isAlpha(code) || code === 0x2a) {
    const start = at;
    at += 1;
    while (isTokenChar(peek())) at += 1;
    return new Token(text.slice(start, at));
  }
  at += 1;
  if (code === 0x3a) return bytes();
  if (code === 0x3f) {
    const bit = peek();
    at += 1;
    if (bit === 0x31 || bit === 0x30) return bit === 0x31;
  } else if (code === 0x40) {
    number(true);
    return { kind: "date" };
  } else if (code === 0x25 && take(0x22)) return display();
  throw FAIL;
}

/**
 * An Integer (up to 15 digits) or, unless `integerOnly` (a Date), a Decimal (up to 12 digits, a
 * point, 1 to 3 digits).
 */
function number(integerOnly: boolean): number {
  const sign = take(0x2d) ? -1 : 1;
  const start = at;
  let point = -1;
  for (let code = peek(); ; code = peek()) {
    if (code === 0x2e && point === -1 && at > start) {
      if (integerOnly || at - start > 12) throw FAIL;
      point = at;
    } else if (!isDigit(code)) break;
    at += 1;
    if (at - start > (point === -1 ? 15 : 16)) throw FAIL;
  }
  if (at === start || point === at - 1 || (point !== -1 && at - point > 4)) throw FAIL;
  // Integer and Decimal both read as a number, as `1.0` and `1` are the same quantity.
  return sign * Number(text.slice(start, at));
}

/** A String: printable ASCII, with `\"` and `\\` the only escapes. */
function string(): string {
  at += 1;
  let value = "";
  for (let from = at; ; ) {
    const code = peek();
    if (code === 0x22 || code === 0x5c) {
      value += text.slice(from, at);
      at += 1;
      if (code === 0x22) return value;
      const escaped = peek();
      if (escaped !== 0x22 && escaped !== 0x5c) throw FAIL;
      from = at;
      at += 1;
    } else if (code >= 0x20 && code <= 0x7e) at += 1;
    else throw FAIL; // a control character, a non-ASCII one, or the end
  }
}

/** A Byte Sequence: base64 between colons, padding optional, as `atob` reads it. */
function bytes(): OtherItem {
  const end = text.indexOf(":", at);
  if (end === -1) throw FAIL;
  const content = text.slice(at, end);
  at = end + 1;
  const ok = BASE64.test(content)
    ? content.length % 4 !== 1
    : content.length % 4 === 0 && PADDED.test(content);
  if (!ok) throw FAIL;
  return { kind: "bytes" };
}

/** A Display String: printable ASCII with `%xx` (lowercase hex) bytes, valid UTF-8 as a whole. */
function display(): OtherItem {
  const octets: number[] = [];
  for (;;) {
    const code = peek();
    at += 1;
    if (!(code >= 0x20 && code <= 0x7e)) throw FAIL;
    if (code === 0x22) break;
    if (code !== 0x25) {
      octets.push(code);
      continue;
    }
    const hex = text.slice(at, at + 2);
    if (!/^[0-9a-f]{2}$/.test(hex)) throw FAIL;
    octets.push(Number.parseInt(hex, 16));
    at += 2;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(octets));
  } catch {
    throw FAIL;
  }
  return { kind: "display" };
}
