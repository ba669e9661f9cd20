// A fetch for vendor SDKs that retry on their own. openai and `@anthropic-ai/sdk` (both generated
// by Stainless) retry a throttled response and a failed fetch alike, sleeping between tries,
// twice by default; they skip the retry only when the response says `x-should-retry: false`.
// So the throttled response is handed back marked that way: the SDK throws its RateLimitError
// at once, with the upstream's status and headers, and `withUpstreamThrottle` reads it.

import { errorFromSignal } from "../errors/upstream-rate-limited-error.js";
import { noteAnswered, noteThrottle } from "../internal/call-notes.js";
import { bool, DEFAULT_MAX_RETRY_AFTER_SECONDS, optionsObject } from "../internal/options.js";
import { urlHost } from "../internal/url-host.js";
import { detectThrottle } from "../signals/detect.js";

/** The options of `sdkFetch`. */
export interface SdkFetchOptions {
  /** The fetch to call. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
}

/**
 * A fetch for an SDK's `fetch` option that makes a throttle final: a throttled response comes
 * back with `x-should-retry: false` added, so openai and `@anthropic-ai/sdk` throw their
 * `RateLimitError` at once, at their default `maxRetries`, instead of sleeping and retrying
 * inside the tool call. Every other response is returned untouched. Wrap the tool callback with
 * `withUpstreamThrottle` (or use `throttledTool`) to turn the SDK's error into the result.
 *
 * SDKs that do not retry a failed fetch (Octokit, `@notionhq/client`) take `throttledFetch`.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { sdkFetch, throttledTool } from "mcp-upstream-throttle";
 * import OpenAI from "openai";
 * import { z } from "zod";
 *
 * const openai = new OpenAI({ fetch: sdkFetch() });
 * const server = new McpServer({ name: "assistant", version: "1.0.0" });
 *
 * server.registerTool(
 *   "ask",
 *   ...throttledTool(
 *     { inputSchema: { question: z.string() } },
 *     async ({ question }) => {
 *       const answer = await openai.responses.create({ model: "gpt-5", input: question });
 *       return { content: [{ type: "text", text: answer.output_text }] };
 *     },
 *     { limit: "openai_requests" },
 *   ),
 * );
 * ```
 */
export function sdkFetch(options?: SdkFetchOptions): typeof fetch {
  const given = optionsObject("options", options);
  const base = given.fetch ?? globalThis.fetch;
  if (typeof base !== "function") throw new TypeError("`fetch` must be a function");
  const treat503AsThrottle = bool("treat503AsThrottle", given.treat503AsThrottle);
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status < 400) noteAnswered();
    // The success path is one comparison; the headers are read only for a 4xx or 5xx.
    if (response.status < 400) return response;
    const throttle = detectThrottle(
      { status: response.status, headers: response.headers },
      { treat503AsThrottle },
    );
    if (throttle === undefined) return response;
    noteThrottle(
      errorFromSignal(throttle, {
        maxRetryAfterSeconds: DEFAULT_MAX_RETRY_AFTER_SECONDS,
        host: urlHost(response.url),
      }),
    );
    const headers = new Headers(response.headers);
    headers.set("x-should-retry", "false");
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
