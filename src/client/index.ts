// "mcp-upstream-throttle/client": the host side (the host-side guide). Loads no runtime dependency
// and no `node:` module: it runs wherever an MCP client does.

/**
 * The host side: read throttles from results and errors, and honour them.
 *
 * @module mcp-upstream-throttle/client
 */

export type { ThrottleEvent, ThrottleEventHook } from "../observability/events.js";
export type { ExecutableTool, ThrottleAwareToolsOptions } from "./adapters/ai-sdk.js";
export { throttleAwareTools } from "./adapters/ai-sdk.js";
export type { AgentsMcpServer } from "./adapters/openai-agents.js";
export { throttleAwareMcpServer } from "./adapters/openai-agents.js";
export type { ToolCallingClient, ToolMakingClient } from "./adapters/sdk-client.js";
export { throttleAwareClient } from "./adapters/sdk-client.js";
export type { MessageTransport, ThrottleAwareTransportOptions } from "./adapters/transport.js";
export { throttleAwareTransport } from "./adapters/transport.js";
export type { ThrottleCooldownErrorInit } from "./errors.js";
export { isThrottleCooldownError, ThrottleCooldownError } from "./errors.js";
export { honorThrottles } from "./honor.js";
export type { HostThrottle, HostThrottleSource } from "./host-throttle.js";
export type { HonorThrottlesOptions } from "./options.js";
export { SERVER_LIMIT_NAME } from "./report.js";
export type { RateLimitedText } from "./text.js";
export { parseRateLimitedText } from "./text.js";
export { readThrottle } from "./throttle.js";
