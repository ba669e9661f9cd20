// Cutting credentials out of what an upstream says. An upstream may echo a key whole, in
// another case, URL-encoded, base64- or hex-encoded, cut short, or with separators inside; so
// a credential is matched by its pieces, twice: any run of text made of 6-character pieces of a
// credential, and any run whose letters and digits alone spell 6-character pieces of the
// credential's letters and digits (so "sk_li ve_4e" is caught). No piece of six or more
// characters of a credential survives, wherever it stands and however the text is cut.
//
// And since some SDKs' errors carry no credential to match (openai, @anthropic-ai/sdk, Octokit
// mask theirs), anything shaped like a credential is cut too, known or not: long runs mixing
// upper case, lower case and digits, long hex, and the prefixes of well-known keys.

import { markKeyShapes } from "./key-patterns.js";

/** The length of a piece. Shorter credentials cannot be told from ordinary words. */
export const PIECE = 6;

const REDACTED = "[redacted]";

/** Redactions kept per matcher, and the longest text kept: an upstream's message, not a body. */
const MEMO_SIZE = 64;
const MEMO_MAX_LENGTH = 2048;

// Anything shaped like a credential (token runs, hex keys, well-known key shapes) is found by
// `markKeyShapes`, in one pass; the shortest shape is 15 characters (a Slack token).
const SHORTEST_SHAPE = 15;

export class SecretMatcher {
  static readonly EMPTY = new SecretMatcher([]);

  /** 6-character pieces of every form of every credential, ASCII letters folded. */
  readonly #pieces = new Set<string>();
  /** 6-character pieces of the credentials' letters and digits alone, folded. */
  readonly #skeletonPieces = new Set<string>();
  /** The rolling hash of each piece: a text is scanned without a substring per position. */
  readonly #pieceHashes = new Set<number>();
  readonly #skeletonHashes = new Set<number>();
  /** What a redacted run becomes; a shorter mark when a credential holds the word itself. */
  readonly #mark: string;
  /** Texts redacted lately, and what they became (the matcher never changes once made). */
  readonly #memo = new Map<string, string>();
  /** Texts checked lately, and whether a credential (or its shape) touches them. */
  readonly #touched = new Map<string, boolean>();

  /** `secrets`: credential values, as they were sent. */
  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      for (const form of forms(secret)) {
        addPieces(this.#pieces, this.#pieceHashes, foldAscii(form));
        addPieces(this.#skeletonPieces, this.#skeletonHashes, skeleton(form).text);
      }
    }
    this.#mark = this.#coversAny(REDACTED) ? "[…]" : REDACTED;
  }

  /**
   * Whether `text` holds a piece of a credential, or anything shaped like one. The same few
   * names (a host, an upstream's limit name) are asked on every throttle: the last answers are
   * kept, as `redact` keeps its own.
   */
  touches(text: string): boolean {
    if (text.length > MEMO_MAX_LENGTH) return this.#covered(text) !== undefined;
    const known = this.#touched.get(text);
    if (known !== undefined) return known;
    const touched = this.#covered(text) !== undefined;
    if (this.#touched.size >= MEMO_SIZE) this.#touched.clear();
    this.#touched.set(text, touched);
    return touched;
  }

  /**
   * `text` with every run covered by a credential (or its shape) replaced by `[redacted]`. An
   * upstream says the same few things again and again (its throttle's message): the answers
   * for the last texts are kept, so a repeated one costs a lookup, not a scan.
   */
  redact(text: string): string {
    if (text.length > MEMO_MAX_LENGTH) return this.#redact(text);
    const known = this.#memo.get(text);
    if (known !== undefined) return known;
    const made = this.#redact(text);
    if (this.#memo.size >= MEMO_SIZE) this.#memo.clear();
    this.#memo.set(text, made);
    return made;
  }

  #redact(text: string): string {
    const covered = this.#covered(text);
    if (covered === undefined) return text;
    let out = "";
    let start = 0;
    while (start < text.length) {
      let end = start;
      const flag = covered[start];
      while (end < text.length && covered[end] === flag) end += 1;
      out += flag === 1 ? this.#mark : text.slice(start, end);
      start = end;
    }
    return out;
  }

  /** Whether `text` holds a piece of a known credential (token shapes aside). */
  #coversAny(text: string): boolean {
    const folded = foldAscii(text);
    for (let i = 0; i + PIECE <= folded.length; i += 1) {
      if (this.#pieces.has(folded.slice(i, i + PIECE))) return true;
    }
    return false;
  }

  /** One flag per code unit of `text`: 1 where it must go; `undefined` when nothing must. */
  #covered(text: string): Uint8Array | undefined {
    let covered: Uint8Array | undefined;
    const mark = (from: number, to: number) => {
      covered ??= new Uint8Array(text.length);
      covered.fill(1, from, to);
    };
    if (this.#pieces.size > 0 && text.length >= PIECE) {
      eachPiece(foldAscii(text), this.#pieceHashes, this.#pieces, (i) => mark(i, i + PIECE));
      const { text: bones, at } = skeleton(text);
      eachPiece(bones, this.#skeletonHashes, this.#skeletonPieces, (i) =>
        mark(at[i] as number, (at[i + PIECE - 1] as number) + 1),
      );
    }
    if (text.length < SHORTEST_SHAPE) return covered;
    markKeyShapes(text, mark);
    return covered;
  }
}

/** The forms a credential may be echoed in: as sent, and base64 (both alphabets) and hex of it. */
function forms(secret: string): string[] {
  const out = [secret.normalize("NFKC")];
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength >= PIECE && bytes.byteLength <= 4096) {
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const base64 = btoa(binary).replace(/=+$/, "");
    out.push(base64, base64.replace(/\+/g, "-").replace(/\//g, "_"));
    out.push(Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(""));
  }
  return out;
}

export function addPieces(pieces: Set<string>, hashes: Set<number>, text: string): void {
  for (let i = 0; i + PIECE <= text.length; i += 1) {
    const piece = text.slice(i, i + PIECE);
    pieces.add(piece);
    hashes.add(pieceHash(piece, 0));
  }
}

/** The rolling hash's base, and the weight of a window's first character (BASE^(PIECE-1)). */
const BASE = 0x01000193;
let top = 1;
for (let k = 1; k < PIECE; k += 1) top = Math.imul(top, BASE);
const TOP = top;

/** The hash of the `PIECE` characters of `text` from `from` (32 bits, wrapping). */
function pieceHash(text: string, from: number): number {
  let hash = 0;
  for (let k = from; k < from + PIECE; k += 1)
    hash = (Math.imul(hash, BASE) + text.charCodeAt(k)) | 0;
  return hash;
}

/**
 * Calls `found(i)` for every position whose `PIECE` characters are one of `pieces`. The window's
 * hash rolls along the text and only a hash that is a piece's is checked against the pieces, so
 * the answer is the plain scan's, without a substring made at every position.
 */
export function eachPiece(
  text: string,
  hashes: ReadonlySet<number>,
  pieces: ReadonlySet<string>,
  found: (at: number) => void,
): void {
  if (text.length < PIECE) return;
  let hash = pieceHash(text, 0);
  for (let i = 0; ; i += 1) {
    if (hashes.has(hash) && pieces.has(text.slice(i, i + PIECE))) found(i);
    if (i + PIECE >= text.length) return;
    hash =
      (Math.imul(hash - Math.imul(text.charCodeAt(i), TOP), BASE) + text.charCodeAt(i + PIECE)) | 0;
  }
}

/** The ASCII letters and digits of `text`, folded, and where each stands in `text`. */
function skeleton(text: string): { text: string; at: number[] } {
  let out = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const digit = code >= 48 && code <= 57;
    const upper = code >= 65 && code <= 90;
    const lower = code >= 97 && code <= 122;
    if (!digit && !upper && !lower) continue;
    out += upper ? String.fromCharCode(code + 32) : text[i];
    at.push(i);
  }
  return { text: out, at };
}

/** ASCII letters to lower case; every other character as is, so positions stay aligned. */
function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}
