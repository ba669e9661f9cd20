// The public API. Everything not exported here is private and may change.

export type { LimitSource, UpstreamRateLimitedErrorInit } from "./errors.js";
export { isUpstreamRateLimitedError, UpstreamRateLimitedError } from "./errors.js";
export type { ThrottledFetchOptions } from "./fetch.js";
export { throttledFetch } from "./fetch.js";
export type { WithUpstreamThrottleOptions } from "./handler.js";
export { withUpstreamThrottle } from "./handler.js";
export type { Dispatch } from "./interceptor.js";
export { throttleInterceptor } from "./interceptor.js";
export type { ThrottleOptions } from "./options.js";
export { DEFAULT_MAX_RETRY_AFTER_SECONDS } from "./options.js";
export { widenOutputShape } from "./output-schema.js";
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
  RateLimitedErrorSchema,
  RateLimitedStructuredContentSchema,
  rateLimitedResult,
} from "./result.js";
export type { DelaySource } from "./signals/delay.js";
export type { DetectOptions, ThrottleResponse, ThrottleSignal } from "./signals/detect.js";
export { detectThrottle } from "./signals/detect.js";
export type { HeaderInput } from "./signals/headers.js";
export { parseRetryAfter } from "./signals/retry-after.js";
