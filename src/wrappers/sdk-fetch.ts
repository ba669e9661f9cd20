// A fetch for vendor SDKs that retry on their own. openai and `@anthropic-ai/sdk` (both generated
// by Stainless) retry a throttled response and a failed fetch alike, sleeping between tries,
// twice by default; they skip the retry only when the response says `x-should-retry: false`.
// So the throttled response is handed back marked that way: the SDK throws its RateLimitError
// at once, with the upstream's status and headers, and `withUpstreamThrottle` reads it.

import type { CooldownOption } from "../cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { once } from "../internal/once.js";
import { optionsObject } from "../internal/options.js";
import type { ThrottleEventHook } from "../observability/events.js";
import { fetchCredentials } from "../untrusted/credentials.js";
import type { FetchPartition } from "./fetch.js";
import { inputHost } from "./fetch-input.js";
import { type Door, GuardedCall } from "./guarded-call.js";
import { throttleSettings } from "./settings.js";
import { watchedRun } from "./watched-run.js";
import { throttleFromWire } from "./wire.js";

/** The options of `sdkFetch`. */
export interface SdkFetchOptions {
  /** The fetch to call. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /**
   * Remember a throttle and answer later requests for the same upstream and credential at once,
   * without sending them, until the delay has passed: the SDK gets a `429` it does not retry,
   * with the time actually remaining, and nothing else of the first answer. The default
   * partition is a keyed hash of the credential the request carries (the SDK's API key), so a
   * server-wide key is one cooldown for every caller. @default false
   */
  cooldown?: CooldownOption<FetchPartition> | undefined;
  /**
   * Told of cooldown hits and store failures. The throttle itself is reported by
   * `withUpstreamThrottle`, which reads the SDK's error. @default none
   */
  onEvent?: ThrottleEventHook | undefined;
}

// The 429 a cooldown hit answers the SDK with is marked, so that the wrapper reading the SDK's
// error does not report it as a second throttle. The mark is one no upstream can forge: the
// response's own `Headers` object (which openai and `@anthropic-ai/sdk` hand on as the error's
// `headers`) is in this set, never a header value an upstream could send. It lives under a
// registered symbol on `globalThis`, so two copies of the package in one process share it.
const ANSWERS = Symbol.for("mcp-upstream-throttle.cooldown-answers");

function cooldownAnswers(): WeakSet<object> {
  const holder = globalThis as { [ANSWERS]?: unknown };
  const found = holder[ANSWERS];
  if (found instanceof WeakSet) return found as WeakSet<object>;
  const made = new WeakSet<object>();
  Object.defineProperty(holder, ANSWERS, { value: made, configurable: true });
  return made;
}

/** Whether `headers` are those of a 429 `sdkFetch` built to answer a cooldown hit. */
export function isCooldownAnswer(headers: unknown): boolean {
  return typeof headers === "object" && headers !== null && cooldownAnswers().has(headers);
}

/**
 * A fetch for an SDK's `fetch` option that makes a throttle final: a throttled response comes
 * back with `x-should-retry: false` added, so openai and `@anthropic-ai/sdk` throw their
 * `RateLimitError` at once, at their default `maxRetries`, instead of sleeping and retrying
 * inside the tool call. Every other response is returned untouched. Wrap the tool callback with
 * `withUpstreamThrottle` (or use `throttledTool`) to turn the SDK's error into the result.
 *
 * With `cooldown`, a throttle is remembered per upstream host and credential, and later requests
 * inside the delay are answered without reaching the upstream.
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
 * const openai = new OpenAI({ fetch: sdkFetch({ cooldown: true }) });
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
  const settings = throttleSettings({
    treat503AsThrottle: given.treat503AsThrottle,
    onEvent: given.onEvent,
  });
  const custom = typeof given.cooldown === "object" ? given.cooldown.partition : undefined;
  const door: Door<Parameters<typeof fetch>[0], RequestInit | undefined, Response> = {
    // The throttle's own event is withUpstreamThrottle's, which reads the SDK's error.
    source: "sdkFetch",
    host: inputHost,
    credentials: (input, init) => fetchCredentials(input, init),
    partition: custom && ((input, init) => custom(input, init)),
    send: (input, init) => base(input, init),
    // The success path is one comparison; the headers are read only for a 4xx or 5xx.
    read: (response, input, init) => {
      if (response.status < 400) return undefined;
      const credentials = once(() => fetchCredentials(input, init));
      const throttle = throttleFromWire(
        { status: response.status, headers: response.headers, body: undefined },
        { host: inputHost(input), credentials },
        settings,
      );
      return Promise.resolve({ throttle, credentials, reported: true });
    },
    answer: (throttle, met) =>
      met instanceof Response ? final(met) : rememberedResponse(throttle),
  };
  const guard = new GuardedCall(door, { ...settings, cooldown: given.cooldown });
  return (input, init) => watchedRun(guard, input, init);
}

/** The throttled response, marked so the SDK throws at once instead of retrying. */
function final(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("x-should-retry", "false");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * A remembered throttle as a response the SDK throws its rate-limit error for at once: the
 * status, the time left and the limit's name, and nothing else of what the upstream said.
 */
export function rememberedResponse(throttle: UpstreamRateLimitedError): Response {
  const seconds = throttle.retryAfterSeconds ?? 0;
  const headers = new Headers({
    "content-type": "application/json",
    "retry-after": String(seconds),
    "x-should-retry": "false",
  });
  if (throttle.retryAfterMs !== undefined)
    headers.set("retry-after-ms", String(Math.ceil(throttle.retryAfterMs)));
  const message = `${throttle.limit} is rate limited; retry after ${seconds} s`;
  const answer = new Response(JSON.stringify({ error: { message, type: "rate_limited" } }), {
    status: throttle.status,
    headers,
  });
  cooldownAnswers().add(answer.headers);
  return answer;
}
