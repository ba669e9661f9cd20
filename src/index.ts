// The public API. Everything not exported here is private and may change. A name is here only
// when a user calls it or writes it in an annotation: every call's options and result types are
// exported by name beside the call.

/**
 * Upstream throttles inside MCP tools become `rate_limited` tool results: the wrappers, the result, detection, the cooldown.
 *
 * @module mcp-upstream-throttle
 */

// Adopting an existing server: every tool at once, every fetch of the process, an axios instance.
export type { ThrottleAxiosOptions } from "./adopt/axios.js";
export { throttleAxios } from "./adopt/axios.js";
export type { ThrottleGlobalFetchOptions } from "./adopt/global-fetch.js";
export { throttleGlobalFetch } from "./adopt/global-fetch.js";
export type { ThrottleServerOptions } from "./adopt/throttle-server.js";
export { throttleServer } from "./adopt/throttle-server.js";
// The result a throttled tool call answers with.
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
// The cooldown: a throttle remembered, and the stores it is remembered in.
export type { CooldownOptions, SharedCooldownOptions } from "./cooldown/cooldown.js";
export type {
  HttpRedisClient,
  HttpRedisClientFactory,
  HttpRedisCooldownStoreOptions,
} from "./cooldown/http-redis.js";
export { HttpRedisCooldownStore } from "./cooldown/http-redis.js";
export type { MemoryCooldownStoreOptions } from "./cooldown/memory.js";
export { MemoryCooldownStore } from "./cooldown/memory.js";
export type { RedisCooldownStoreOptions, RedisLikeClient } from "./cooldown/redis.js";
export { RedisCooldownStore } from "./cooldown/redis.js";
export type { CooldownEntry, CooldownStore } from "./cooldown/store.js";
// The error a throttle travels as, and the vendor errors it is recognised in.
export type { ToUpstreamRateLimitedErrorOptions } from "./errors/recognize.js";
export { toUpstreamRateLimitedError } from "./errors/recognize.js";
export type {
  ToToolResultOptions,
  UpstreamRateLimitedErrorInit,
} from "./errors/upstream-rate-limited-error.js";
export {
  isUpstreamRateLimitedError,
  UpstreamRateLimitedError,
} from "./errors/upstream-rate-limited-error.js";
// Events, for logs and metrics.
export type {
  ThrottleEvent,
  ThrottleEventHook,
  ThrottleObservedEvent,
} from "./observability/events.js";
export { EVENT_CHANNELS } from "./observability/events.js";
// Detection, pure: a response in, a throttle signal out.
export type { DelaySource } from "./signals/delay.js";
export type { DetectOptions, ThrottleResponse, ThrottleSignal } from "./signals/detect.js";
export { detectThrottle } from "./signals/detect.js";
export { parseRetryAfter } from "./signals/retry-after.js";
// The doors: wrap the call to the upstream, or the tool around it.
export type {
  AggregateToolOptions,
  FanOutToolOptions,
  ToolResultLike,
} from "./wrappers/aggregate.js";
export { aggregateTool, FanOutAbortedError, fanOutTool } from "./wrappers/aggregate.js";
export type { ThrottledFetchOptions } from "./wrappers/fetch.js";
export { throttledFetch } from "./wrappers/fetch.js";
export type {
  ThrottledHandler,
  ThrottledResult,
  WithUpstreamThrottleOptions,
} from "./wrappers/handler.js";
export { withUpstreamThrottle } from "./wrappers/handler.js";
export type { ThrottleInterceptorOptions } from "./wrappers/interceptor/index.js";
export { throttleInterceptor } from "./wrappers/interceptor/index.js";
export type { RetryOptions } from "./wrappers/retry.js";
export type { SdkFetchOptions } from "./wrappers/sdk-fetch.js";
export { sdkFetch } from "./wrappers/sdk-fetch.js";
// The options every door takes.
export type { ThrottleOptions } from "./wrappers/settings.js";
export type {
  ThrottledToolConfig,
  ThrottledToolOptions,
  ToolCallExtra,
} from "./wrappers/throttled-tool.js";
export { throttledTool } from "./wrappers/throttled-tool.js";
