// "mcp-upstream-throttle/cloudflare": cooldowns shared by every isolate of a Cloudflare Worker,
// in Durable Objects. Loads no runtime dependency and no `node:` module.

/**
 * Cooldowns for Cloudflare Workers: the Durable Object class to export and bind, and its store.
 *
 * @module mcp-upstream-throttle/cloudflare
 */

export type { CooldownObjectState, CooldownObjectStorage } from "./cooldown/durable-object.js";
export { CooldownDurableObject } from "./cooldown/durable-object.js";
export type {
  DurableObjectCooldownStoreOptions,
  DurableObjectNamespaceLike,
  DurableObjectStubLike,
} from "./cooldown/durable-object-store.js";
export { DurableObjectCooldownStore } from "./cooldown/durable-object-store.js";
