import type { ServerResponse } from "node:http";
import {
  isUpstreamRateLimitedError,
  type RateLimitedToolResult,
  rateLimitedResult,
  type UpstreamRateLimitedError,
} from "../../src/index.js";

/** The throttle a call rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<UpstreamRateLimitedError> {
  const reason = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isUpstreamRateLimitedError(reason))
    throw new Error(`expected a throttle, got ${String(reason)}`);
  return reason;
}

const CHUNK = Buffer.alloc(64 * 1024, "x");

/**
 * Writes `bytes` of body in 64 KiB chunks, minding backpressure, and counts the bodies that
 * went out to their end in `finished.count` (a cancelled body never does).
 */
export function pumpBody(res: ServerResponse, bytes: number, finished: { count: number }): void {
  let sent = 0;
  const pump = () => {
    while (sent < bytes) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once("drain", pump);
    }
    res.end();
  };
  res.on("error", () => {});
  res.on("finish", () => {
    finished.count += 1;
  });
  pump();
}

/**
 * The result a server sends for a throttle whose upstream said `message`: `rateLimitedResult`'s,
 * with the upstream's words quoted after the sentence, as the library writes them.
 */
export function relayedResult(info: {
  limit: string;
  retryAfterSeconds?: number;
  message: string;
}): RateLimitedToolResult {
  const result = rateLimitedResult(info);
  result.content[0].text += ` The upstream said: ${JSON.stringify(info.message)}`;
  return result;
}
