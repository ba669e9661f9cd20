// The public API. Everything not exported here is private and may change.

/**
 * Upstream throttles inside MCP tools become `rate_limited` tool results: the wrappers, the result, detection, the cooldown.
 *
 * @module mcp-upstream-throttle
 */

export type {
  AggregateToolOptions,
  FanOutArgs,
  FanOutPart,
  FanOutToolOptions,
  ToolResultLike,
} from "./aggregate.js";
export { aggregateTool, FanOutAbortedError, fanOutTool } from "./aggregate.js";
export type {
  CooldownOption,
  CooldownOptions,
  SharedCooldownOptions,
} from "./cooldown/cooldown.js";
export { InvalidCooldownEntryError } from "./cooldown/cooldown.js";
export type { MemoryCooldownStoreOptions } from "./cooldown/memory.js";
export { MemoryCooldownStore } from "./cooldown/memory.js";
export type { RedisCooldownStoreOptions, RedisLikeClient } from "./cooldown/redis.js";
export { RedisCooldownStore } from "./cooldown/redis.js";
export type { CooldownEntry, CooldownStore } from "./cooldown/store.js";
export type { LimitSource, UpstreamRateLimitedErrorInit } from "./errors.js";
export { isUpstreamRateLimitedError, UpstreamRateLimitedError } from "./errors.js";
export type {
  CooldownHitEvent,
  EventSource,
  RetryEvent,
  StoreErrorEvent,
  ThrottleEvent,
  ThrottleEventHook,
  ThrottleObservedEvent,
} from "./events.js";
export { EVENT_CHANNELS } from "./events.js";
export type { FetchInput, FetchPartition, ThrottledFetchOptions } from "./fetch.js";
export { throttledFetch } from "./fetch.js";
export type {
  HandlerPartition,
  ThrottledHandler,
  ThrottledResult,
  ToolResultFields,
  WithUpstreamThrottleOptions,
} from "./handler.js";
export { withUpstreamThrottle } from "./handler.js";
export type {
  Dispatch,
  DispatchController,
  DispatchHandler,
  DispatchOptions,
  DispatchPartition,
  ResponseHeaders,
  ThrottleInterceptorOptions,
} from "./interceptor/index.js";
export { throttleInterceptor } from "./interceptor/index.js";
export type { ThrottleOptions } from "./options.js";
export { DEFAULT_MAX_RETRY_AFTER_SECONDS } from "./options.js";
export type { RecognizeOptions } from "./recognize.js";
export { toUpstreamRateLimitedError } from "./recognize.js";
export type {
  RateLimitedError,
  RateLimitedInfo,
  RateLimitedResultOptions,
  RateLimitedToolResult,
} from "./result.js";
export {
  DEFAULT_RATE_LIMITED_MESSAGE,
  isRateLimitedResult,
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  rateLimitedResult,
} from "./result.js";
export type { RetryOption, RetryOptions } from "./retry.js";
export type { SdkFetchOptions } from "./sdk-fetch.js";
export { sdkFetch } from "./sdk-fetch.js";
export type { DelaySource } from "./signals/delay.js";
export type {
  DetectOptions,
  ThrottleResponse,
  ThrottleSignal,
  UpstreamText,
} from "./signals/detect.js";
export { detectThrottle } from "./signals/detect.js";
export type { HeaderInput } from "./signals/headers.js";
export { parseRetryAfter } from "./signals/retry-after.js";
export type { SuccessBodyGate } from "./success-path.js";
export type {
  ThrottledToolConfig,
  ThrottledToolOptions,
  ToolArgs,
  ToolCallExtra,
} from "./throttled-tool.js";
export { throttledTool } from "./throttled-tool.js";
