// The sentence of the `rate_limited` result, read back. Some hosts keep nothing else of a throttled
// result (LangChain's adapter keeps the text in a ToolException), so the text alone must identify
// it, and only the exact sentence counts: prose that happens to say "rate limited" is not a
// throttle. The sentence is read at the start of the text; what the library writes after it
// (the upstream's words, quoted and labelled) is never read for a delay or a limit.

import { leadingSentence, rateLimitedText } from "../contract/result.js";

/** What `parseRateLimitedText` reads from the sentence. */
export interface RateLimitedText {
  /** The limit that tripped, as the sentence names it. */
  limit: string;
  /** Whole seconds to wait; absent for "Wait before retrying." */
  retryAfterSeconds?: number;
}

// One line; the limit is whatever the sentence names, checked below by writing it again.
const SENTENCE = /^Rate limited by (.+)\. (?:Retry after (\d+) seconds?|Wait before retrying)\.$/;
// The sentence, the upstream's limit name and 256 code points of its words, each quote escaped,
// fit; longer text is not worth matching.
const MAX_LENGTH = 4096;

/**
 * The limit and delay of the exact sentence `Rate limited by <limit>. Retry after <n> seconds.`
 * (`1 second`), or `Rate limited by <limit>. Wait before retrying.`, at the start of the text;
 * after it, only what the library writes there (` The upstream calls this limit "<name>".`,
 * ` The upstream said: "<words>"`), which is never read for a delay or a limit. `undefined` for
 * any other text, including near misses (`1 seconds`, `05 seconds`, a trailing space, a second
 * line).
 *
 * @example
 * ```ts
 * import { parseRateLimitedText } from "mcp-upstream-throttle/client";
 *
 * parseRateLimitedText("Rate limited by github. Retry after 30 seconds.");
 * // { limit: "github", retryAfterSeconds: 30 }
 * parseRateLimitedText('Rate limited by github. Retry after 30 seconds. The upstream said: "Slow down"');
 * // { limit: "github", retryAfterSeconds: 30 }
 * parseRateLimitedText("GitHub said: rate limited"); // undefined
 * ```
 */
export function parseRateLimitedText(text: string): RateLimitedText | undefined {
  if (typeof text !== "string" || text.length > MAX_LENGTH) return undefined;
  const sentence = leadingSentence(text);
  if (sentence === undefined) return undefined;
  const match = SENTENCE.exec(sentence);
  if (match === null) return undefined;
  const [, limit = "", digits] = match;
  if (limit.trim() === "") return undefined;
  const seconds = digits === undefined ? undefined : Number(digits);
  if (seconds !== undefined && !Number.isSafeInteger(seconds)) return undefined;
  // Exactly what the server side writes: singular for 1, no leading zeros.
  if (rateLimitedText(limit, seconds) !== sentence) return undefined;
  return seconds === undefined ? { limit } : { limit, retryAfterSeconds: seconds };
}
