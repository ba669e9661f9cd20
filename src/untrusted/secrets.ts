// Cutting a request's credentials out of what its upstream says. An upstream may echo a key
// whole, in another case, URL-encoded, or cut short; so a credential is matched by its pieces:
// any run of text made of 6-character pieces of a credential is redacted. No piece of six or
// more characters of a credential survives, wherever it stands and however the text is cut.

/** The length of a piece. Shorter credentials cannot be told from ordinary words. */
export const PIECE = 6;

const REDACTED = "[redacted]";

export class SecretMatcher {
  static readonly EMPTY = new SecretMatcher([]);

  readonly #pieces = new Set<string>();

  /** `secrets`: credential values, in every form they may be echoed in. */
  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      const folded = foldAscii(secret);
      for (let i = 0; i + PIECE <= folded.length; i += 1) {
        this.#pieces.add(folded.slice(i, i + PIECE));
      }
    }
  }

  get isEmpty(): boolean {
    return this.#pieces.size === 0;
  }

  /** Whether `text` holds a piece of a credential. */
  touches(text: string): boolean {
    if (this.#pieces.size === 0) return false;
    const folded = foldAscii(text);
    for (let i = 0; i + PIECE <= folded.length; i += 1) {
      if (this.#pieces.has(folded.slice(i, i + PIECE))) return true;
    }
    return false;
  }

  /** `text` with every run covered by pieces of a credential replaced by `[redacted]`. */
  redact(text: string): string {
    if (this.#pieces.size === 0 || text.length < PIECE) return text;
    const folded = foldAscii(text);
    let covered: Uint8Array | undefined;
    for (let i = 0; i + PIECE <= folded.length; i += 1) {
      if (!this.#pieces.has(folded.slice(i, i + PIECE))) continue;
      covered ??= new Uint8Array(text.length);
      covered.fill(1, i, i + PIECE);
    }
    if (covered === undefined) return text;
    let out = "";
    let start = 0;
    while (start < text.length) {
      let end = start;
      const flag = covered[start];
      while (end < text.length && covered[end] === flag) end += 1;
      out += flag === 1 ? REDACTED : text.slice(start, end);
      start = end;
    }
    return out;
  }
}

/** ASCII letters to lower case; every other character as is, so positions stay aligned. */
function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}
