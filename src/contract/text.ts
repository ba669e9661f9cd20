// The text block of the rate_limited result, written and read back in one place: the sentence
// the model reads first (several hosts show only this), then what the upstream said, quoted and
// labelled as the upstream's.

/** The sentence the model reads; it stands on its own (several hosts show only this). */
export function rateLimitedText(limit: string, retryAfterSeconds?: number): string {
  if (retryAfterSeconds === undefined) return `Rate limited by ${limit}. Wait before retrying.`;
  const unit = retryAfterSeconds === 1 ? "second" : "seconds";
  return `Rate limited by ${limit}. Retry after ${retryAfterSeconds} ${unit}.`;
}

/** What the upstream said, already through its doors, for the text after the sentence. */
export interface UpstreamWords {
  /** The upstream's own name for the limit, when the author's name replaced it. */
  limit?: string | undefined;
  /** The upstream's own message, cleaned. */
  message?: string | undefined;
}

// The labels of what follows the sentence. The words are written as a JSON string: a quote or
// backslash inside them is escaped, so the quote closes only where the library closes it, and
// the text after the sentence has one reading.
const LIMIT_LABEL = " The upstream calls this limit ";
const MESSAGE_LABEL = " The upstream said: ";

/**
 * The text block: the sentence, then the upstream's own limit name and words, each labelled as
 * the upstream's, e.g. `Rate limited by github. Retry after 37 seconds. The upstream calls this
 * limit "search". The upstream said: "API rate limit exceeded"`.
 */
export function rateLimitedResultText(sentence: string, said: UpstreamWords | undefined): string {
  if (said === undefined) return sentence;
  let text = sentence;
  if (said.limit !== undefined) text += `${LIMIT_LABEL}${JSON.stringify(said.limit)}.`;
  if (said.message !== undefined && said.message !== "")
    text += `${MESSAGE_LABEL}${JSON.stringify(said.message)}`;
  return text;
}

// What may follow the sentence: exactly what `rateLimitedResultText` writes, nothing else. The
// limit is an identifier (the limit-name door lets nothing else through); the words, one JSON
// string without control characters (the message door took them out).
const AFTER_SENTENCE = new RegExp(
  `^(?:${LIMIT_LABEL}"[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}"\\.)?(?:${MESSAGE_LABEL}"(?:[^"\\\\\\u0000-\\u001f]|\\\\["\\\\])*")?$`,
);

/**
 * The sentence at the start of a result's text, when what follows it is only what the library
 * writes there (the upstream's words, quoted and labelled); `undefined` otherwise. The words
 * after the sentence are never read for a delay or a limit: the first sentence is the library's,
 * and an upstream that writes "Rate limited by …" into its message only fills the quote.
 */
export function leadingSentence(text: string): string | undefined {
  if (!text.startsWith(SENTENCE_START)) return undefined;
  // Each place the sentence may end, shortest first: an upstream's name holds no space, so it
  // holds no end; only an author's own name may, and then a later end is the sentence's.
  SENTENCE_END.lastIndex = SENTENCE_START.length;
  for (let end = SENTENCE_END.exec(text); end !== null; end = SENTENCE_END.exec(text)) {
    const length = end.index + end[0].length;
    if (end.index > SENTENCE_START.length && AFTER_SENTENCE.test(text.slice(length)))
      return text.slice(0, length);
  }
  return undefined;
}

const SENTENCE_START = "Rate limited by ";
const SENTENCE_END = /\. (?:Retry after \d+ seconds?|Wait before retrying)\./g;
