// Text the request itself carried is not the upstream's word. Many APIs echo what they were asked
// for in their error (GitHub's 403 "Resource not accessible by integration" names the path), so a
// caller who names a repository "x rate limit exceeded. try again in 24 hours" would otherwise
// turn that 403 into a day-long throttle for every tenant of a server-wide key. A sentence of the
// message counts only when some of its letters or digits are not the request's own text.
//
// Compared by skeleton (letters and digits, lowercased): cleaning the message collapses spaces and
// drops invisible characters, and an echo may be decoded or re-cased, but its letters stay.

/**
 * Letters and digits in a row that count as an echo: any run of this many that the request
 * carried, wherever it stands in the message. Runs, not whole pieces, so an echo the message cut
 * short ("try again in 9hours" cut to "… 9h") or broke with a redaction is still an echo.
 */
const RUN = 8;
/** Runs looked for at most: a request with more only has its first ones compared. */
const MAX_RUNS = 32 * 1024;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Which parts of one message only echo the request's own text; worked out on first question. */
export class Echo {
  readonly #message: string;
  readonly #texts: () => readonly string[];
  /** Per UTF-16 unit of the message: 1 letter or digit not echoed, 2 echoed, 0 neither. */
  #marks: Uint8Array | undefined;

  /** `texts`: the request's path, query and body pieces, gathered only when asked for. */
  constructor(message: string, texts: () => readonly string[]) {
    this.#message = message;
    this.#texts = texts;
  }

  /** Whether every letter and digit of `message.slice(start, end)` is the request's own text. */
  covers(start: number, end: number): boolean {
    const marks = this.#marks ?? this.#mark();
    let any = false;
    for (let i = Math.max(0, start); i < end && i < marks.length; i += 1) {
      if (marks[i] === 1) return false;
      if (marks[i] === 2) any = true;
    }
    return any;
  }

  #mark(): Uint8Array {
    const message = skeleton(this.#message);
    const marks = new Uint8Array(this.#message.length);
    for (const at of message.at) marks[at] = 1;
    const runs = requestRuns(this.#texts);
    for (let i = 0; i + RUN <= message.text.length; i += 1) {
      if (!runs.has(message.text.slice(i, i + RUN))) continue;
      for (let k = i; k < i + RUN; k += 1) {
        const at = message.at[k];
        if (at !== undefined) marks[at] = 2;
      }
    }
    this.#marks = marks;
    return marks;
  }
}

/** Every run of `RUN` letters and digits the request's text holds. */
function requestRuns(texts: () => readonly string[]): Set<string> {
  const runs = new Set<string>();
  let pieces: readonly string[] = [];
  try {
    pieces = texts();
  } catch {
    // A hostile request object: nothing of it is known to be echoed.
  }
  for (const piece of pieces) {
    const text = skeleton(piece).text;
    for (let i = 0; i + RUN <= text.length; i += 1) {
      if (runs.size >= MAX_RUNS) return runs;
      runs.add(text.slice(i, i + RUN));
    }
  }
  return runs;
}

/** The letters and digits of `text`, lowercased, and where each came from. */
function skeleton(text: string): { text: string; at: number[] } {
  let out = "";
  const at: number[] = [];
  let i = 0;
  for (const char of text) {
    if (LETTER_OR_DIGIT.test(char)) {
      const lower = char.toLowerCase();
      out += lower;
      for (let k = 0; k < lower.length; k += 1) at.push(i);
    }
    i += char.length;
  }
  return { text: out, at };
}
