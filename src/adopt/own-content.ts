// What a tool answered itself, kept after the rate_limited text when a whole-server switch
// replaces its result: the model never reads less than it did without the library (a tool's
// own recovery instructions, "set FIRECRAWL_API_KEY to continue", survive). Kept are its text
// blocks, cleaned of the credentials the throttled request carried and of the `credentials`
// option; left out are blocks that cannot be cleaned of them (images, audio, resources, links)
// and text that only restates the library's own error (a catch-all's `Error: ${message}`),
// which the text block before them already says better.

import type { RateLimitedTextBlock } from "../contract/result.js";
import type { Recognition } from "../errors/recognize.js";
import type { NotedCredentials } from "../internal/call-notes.js";
import { readProperty as get, isObject } from "../internal/is-object.js";
import { errorCredentials } from "../untrusted/credentials.js";

/** What the replacement knows of the throttle: the error the doors saw and how to find its request. */
export interface NotedThrottle {
  /** The error the doors noted (it may be a vendor's, or ours with a vendor's as `cause`). */
  noted: object;
  /** The credentials of the throttled request, when its door knew them. */
  credentials: (() => NotedCredentials) | undefined;
  /** The library's own error messages for this throttle, as a catch-all would print them. */
  messages: readonly string[];
}

// What is left of a text once the library's own error message is taken out, when the text said
// nothing else: punctuation, and the prefixes frameworks put before an error's message
// ("Error:", "MCP error -32603:", "Tool failed:").
const NOTHING_ELSE =
  /^[\s\p{P}]*(?:(?:mcp |tool )?(?:error|failed|failure)(?: -?\d+)?[\s\p{P}]*)*$/iu;

/**
 * The tool's own text blocks, cleaned, to follow the rate_limited text block. Never throws: a
 * result that cannot be read keeps nothing.
 */
export function ownContent(
  result: unknown,
  throttle: NotedThrottle,
  recognition: Recognition,
): RateLimitedTextBlock[] {
  let blocks: unknown;
  try {
    blocks = isObject(result) ? get(result, "content") : undefined;
    if (!Array.isArray(blocks) || blocks.length === 0) return [];
    const texts: string[] = [];
    for (const block of blocks as unknown[]) {
      if (!isObject(block) || get(block, "type") !== "text") continue;
      const text = get(block, "text");
      if (typeof text === "string" && text.trim() !== "" && !restates(text, throttle.messages))
        texts.push(text);
    }
    if (texts.length === 0) return [];
    const redactors = matchers(throttle, recognition);
    return texts.map((text) => ({ type: "text", text: redactAll(text, redactors) }));
  } catch {
    return [];
  }
}

/** Whether `text` says only one of the library's own error messages. */
function restates(text: string, messages: readonly string[]): boolean {
  for (const message of messages) {
    if (message !== "" && text.includes(message) && NOTHING_ELSE.test(text.replace(message, "")))
      return true;
  }
  return false;
}

/**
 * The credentials to keep out: the throttled request's (as its door gathered them, and as a
 * vendor's error carries them), and the `credentials` option.
 */
function matchers(throttle: NotedThrottle, recognition: Recognition): Redactor[] {
  const found: Redactor[] = [];
  if (throttle.credentials !== undefined) found.push(throttle.credentials().matcher());
  const cause = (throttle.noted as { cause?: unknown }).cause;
  found.push(errorCredentials(cause ?? throttle.noted, recognition.credentials).matcher());
  return found;
}

type Redactor = { redact(text: string): string };

function redactAll(text: string, matchers: readonly Redactor[]): string {
  let redacted = text;
  for (const matcher of matchers) redacted = matcher.redact(redacted);
  return redacted;
}
