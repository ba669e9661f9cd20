// Attack: a 403 whose body says "secondary rate limit" and then never ends. Only the body can
// tell it is a throttle, so a copy is read; the original body must then be let go too, or every
// such call leaves a socket open for as long as the upstream cares to hold it.

import ky from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { parseRateLimitedResult, throttledFetch, withUpstreamThrottle } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { throttleOf } from "./helpers.js";

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** A 403 that names a secondary rate limit in its first chunk and never sends another. */
async function neverEndingSecondaryLimit() {
  upstream = await startServer((_req, res) => {
    res.writeHead(403, { "content-type": "text/plain" });
    res.write("You have exceeded a secondary rate limit. Please wait a few minutes.");
    // ...and the body never ends.
  });
  return upstream;
}

describe("a throttle only the body shows leaves no socket open", () => {
  it("throttledFetch: ten calls, no socket left when they are over", async () => {
    const { url } = await neverEndingSecondaryLimit();
    const api = throttledFetch({ limit: "github", bodyTimeoutMs: 200 });
    for (let i = 0; i < 10; i += 1) {
      const throttle = await throttleOf(api(url));
      expect(throttle.upstreamMessage).toMatch(/secondary rate limit/);
    }
    expect(await eventually(() => upstream?.usedConnectionsOpen === 0, 3_000)).toBe(true);
  });

  it("withUpstreamThrottle around ky: ten calls, no socket left", async () => {
    const { url } = await neverEndingSecondaryLimit();
    const tool = withUpstreamThrottle(
      async () => {
        await ky.get(url, { retry: 0, timeout: false });
        return { content: [] };
      },
      { limit: "github", bodyTimeoutMs: 200 },
    );
    for (let i = 0; i < 10; i += 1) {
      expect(parseRateLimitedResult(await tool())?.limit).toBe("github");
    }
    expect(await eventually(() => upstream?.usedConnectionsOpen === 0, 3_000)).toBe(true);
  });
});
