// What every attack test checks: no piece of a credential got through.

import { Agent, request } from "undici";
import { expect } from "vitest";
import { isUpstreamRateLimitedError, type UpstreamRateLimitedError } from "../../src/index.js";

/** Every 6-character piece of `secret`: none may appear anywhere the upstream's words go. */
export function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 6 <= secret.length; i += 1) out.push(secret.slice(i, i + 6).toLowerCase());
  return out;
}

/** Fails when `text` holds any 6-character piece of any of `secrets`, in any case. */
export function expectNoPieceOf(text: string, secrets: readonly string[]): void {
  const lower = text.toLowerCase();
  for (const secret of secrets) {
    for (const piece of pieces(secret)) {
      expect(lower.includes(piece), `"${piece}" of a credential in: ${text}`).toBe(false);
    }
  }
}

/** The throttle a call rejects with, from throttledFetch or undici (directly or as a cause). */
export async function throttleOf(promise: Promise<unknown>): Promise<UpstreamRateLimitedError> {
  const reason = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  const throttle = isUpstreamRateLimitedError(reason)
    ? reason
    : isUpstreamRateLimitedError((reason as { cause?: unknown } | undefined)?.cause)
      ? (reason as { cause: UpstreamRateLimitedError }).cause
      : undefined;
  if (throttle === undefined) throw new Error(`expected a throttle, got ${String(reason)}`);
  return throttle;
}

/** Everything of a throttle that could reach a model or a log: its result and its message. */
export function exposedText(throttle: UpstreamRateLimitedError): string {
  return `${JSON.stringify(throttle.toToolResult())}\n${throttle.message}\n${throttle.limit}\n${throttle.upstreamMessage ?? ""}`;
}

/** `undici.request` through a composed dispatcher, with the agent closed afterwards. */
export function undiciCaller(interceptor: Parameters<Agent["compose"]>[0]) {
  const agent = new Agent();
  const dispatcher = agent.compose(interceptor);
  return {
    call: (url: string, headers: Record<string, string> = {}) =>
      request(url, { dispatcher, headers }).then(async (response) => {
        await response.body.dump();
        return response.statusCode;
      }),
    close: () => agent.close(),
  };
}
