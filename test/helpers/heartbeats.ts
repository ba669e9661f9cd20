// A RedisCooldownStore's time under test: its clock (`performance`, which the monotonic clock
// reads) and its heartbeat (`setInterval`) on fake timers, moved one beat at a time, while Redis,
// the sockets and the commands' own timeout stay on real time. What would wait seconds for a
// store's beats to add up takes the round trips alone.

import { onTestFinished, vi } from "vitest";

/** The store's heartbeat (src/cooldown/redis.ts). */
export const BEAT_MS = 500;

/** Something that sends a command and waits for its answer. */
export interface Pinger {
  command(...args: string[]): Promise<unknown>;
}

/**
 * Puts the stores made from now on (until the test ends) under fake heartbeats. `beats(count)`
 * moves them `count` beats, each followed by the round trip of what it sent (a PING behind it on
 * `client`, the connection the stores use).
 */
export function fakeHeartbeats(client: Pinger) {
  vi.useFakeTimers({ toFake: ["performance", "setInterval", "clearInterval"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const beats = async (count: number, between?: () => Promise<unknown>) => {
    for (let i = 0; i < count; i += 1) {
      await between?.();
      await vi.advanceTimersByTimeAsync(BEAT_MS);
      await client.command("PING");
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** Beats until `check` holds, at most `max` of them; whether it held. */
  const beatsUntil = async (check: () => Promise<boolean>, max: number) => {
    for (let i = 0; i < max; i += 1) {
      if (await check()) return true;
      await beats(1);
    }
    return check();
  };
  return { beats, beatsUntil };
}
