// The public API. Everything not exported here is private and may change.

/**
 * Upstream throttles inside MCP tools become `rate_limited` tool results: the wrappers, the result, detection, the cooldown.
 *
 * @module mcp-upstream-throttle
 */

export type { AxiosLike } from "./adopt/axios.js";
export { throttleAxios } from "./adopt/axios.js";
export type { ThrottleGlobalFetchOptions } from "./adopt/global-fetch.js";
export { throttleGlobalFetch } from "./adopt/global-fetch.js";
export type { ThrottleServerOptions } from "./adopt/throttle-server.js";
export { throttleServer } from "./adopt/throttle-server.js";
export type {
  RateLimitedError,
  RateLimitedInfo,
  RateLimitedResultOptions,
  RateLimitedToolResult,
} from "./contract/result.js";
export {
  DEFAULT_RATE_LIMITED_MESSAGE,
  isRateLimitedResult,
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  rateLimitedResult,
} from "./contract/result.js";
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
export type { RecognizeOptions } from "./errors/recognize.js";
export { toUpstreamRateLimitedError } from "./errors/recognize.js";
export type {
  LimitSource,
  UpstreamRateLimitedErrorInit,
} from "./errors/upstream-rate-limited-error.js";
export {
  isUpstreamRateLimitedError,
  UpstreamRateLimitedError,
} from "./errors/upstream-rate-limited-error.js";
export type { ThrottleOptions } from "./internal/options.js";
export { DEFAULT_MAX_RETRY_AFTER_SECONDS } from "./internal/options.js";
export type {
  CooldownHitEvent,
  EventSource,
  PreemptEvent,
  RetryEvent,
  StoreErrorEvent,
  ThrottleEvent,
  ThrottleEventHook,
  ThrottleObservedEvent,
} from "./observability/events.js";
export { EVENT_CHANNELS } from "./observability/events.js";
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
export type {
  AggregateToolOptions,
  FanOutArgs,
  FanOutPart,
  FanOutToolOptions,
  ToolResultLike,
} from "./wrappers/aggregate.js";
export { aggregateTool, FanOutAbortedError, fanOutTool } from "./wrappers/aggregate.js";
export type { FetchInput, FetchPartition, ThrottledFetchOptions } from "./wrappers/fetch.js";
export { throttledFetch } from "./wrappers/fetch.js";
export type {
  HandlerPartition,
  ThrottledHandler,
  ThrottledResult,
  ToolResultFields,
  WithUpstreamThrottleOptions,
} from "./wrappers/handler.js";
export { withUpstreamThrottle } from "./wrappers/handler.js";
export type {
  Dispatch,
  DispatchController,
  DispatchHandler,
  DispatchOptions,
  DispatchPartition,
  ResponseHeaders,
  ThrottleInterceptorOptions,
} from "./wrappers/interceptor/index.js";
export { throttleInterceptor } from "./wrappers/interceptor/index.js";
export type { RetryOption, RetryOptions } from "./wrappers/retry.js";
export type { SdkFetchOptions } from "./wrappers/sdk-fetch.js";
export { sdkFetch } from "./wrappers/sdk-fetch.js";
export type { SuccessBodyGate } from "./wrappers/success-path.js";
export type {
  ThrottledToolConfig,
  ThrottledToolOptions,
  ToolArgs,
  ToolCallExtra,
} from "./wrappers/throttled-tool.js";
export { throttledTool } from "./wrappers/throttled-tool.js";
