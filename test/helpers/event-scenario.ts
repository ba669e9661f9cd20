// One run that makes every kind of event happen, through real wrappers and a real upstream:
// a throttle, a retry, a cooldown hit, a store failure. Credentials and a message ride along,
// so a test can check that none of them reaches an event.

import { Agent, request } from "undici";
import {
  type CooldownStore,
  fanOutTool,
  MemoryCooldownStore,
  type ThrottleEvent,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer } from "./http-server.js";

export const SECRET = "sk_live_EventSecret0123456789";
export const MESSAGE = "upstream words that are no event's business";

export async function runEventScenario(onEvent?: (event: ThrottleEvent) => void): Promise<void> {
  let shortCalls = 0;
  const upstream = await startServer((req, res) => {
    // /short: throttled once for 50 ms, then fine (a retry succeeds).
    if (req.url?.startsWith("/short")) shortCalls += 1;
    if (req.url?.startsWith("/short") && shortCalls === 1) {
      res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "50" });
      res.end(JSON.stringify({ message: MESSAGE }));
      return;
    }
    if (req.url?.startsWith("/long")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
      res.end(JSON.stringify({ message: `${MESSAGE} ${SECRET}` }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  const headers = { authorization: `Bearer ${SECRET}` };
  const broken: CooldownStore = {
    shared: false,
    get: () => {
      throw Object.assign(new Error(`cannot reach ${SECRET}`), { code: "ECONNREFUSED" });
    },
    set: () => {},
  };
  const agent = new Agent();
  try {
    // throttle + retry (throttledFetch), then a success.
    const retrying = throttledFetch({ limit: "search", retry: true, onEvent });
    await retrying(`${upstream.url}/short?api_key=${SECRET}`, { headers });
    // throttle, then cooldown-hit (throttledFetch).
    // Each run its own store: `cooldown: true` is one store per process, and a scenario runs twice.
    const cooling = throttledFetch({
      limit: "search",
      cooldown: { store: new MemoryCooldownStore() },
      onEvent,
    });
    for (let i = 0; i < 2; i += 1) {
      await cooling(`${upstream.url}/long?api_key=${SECRET}`, { headers }).catch(() => {});
    }
    // store-error (throttledFetch), the call going on to the upstream.
    await throttledFetch({ limit: "search", cooldown: { store: broken }, onEvent })(upstream.url);
    // throttle, then cooldown-hit (throttleInterceptor).
    const dispatcher = agent.compose(
      throttleInterceptor({
        limit: "undici",
        cooldown: { store: new MemoryCooldownStore() },
        onEvent,
      }),
    );
    for (let i = 0; i < 2; i += 1) {
      await request(`${upstream.url}/long`, { dispatcher, headers }).catch(() => {});
    }
    // throttle, recognised in a vendor-shaped error (withUpstreamThrottle), then cooldown-hit.
    const tool = withUpstreamThrottle(
      async (_args: object, _extra: { authInfo: { token: string } }) => {
        throw Object.assign(new Error("Request failed with status code 429"), {
          response: { status: 429, headers: { "retry-after": "30" }, data: { message: MESSAGE } },
          config: { url: `${upstream.url}/vendor`, headers },
        });
      },
      { limit: "vendor", cooldown: { store: new MemoryCooldownStore() }, onEvent },
    );
    for (let i = 0; i < 2; i += 1) await tool({}, { authInfo: { token: SECRET } });
    // the throttle a fan-out answers with.
    await fanOutTool({
      parts: () => ({ one: async () => tool({}, { authInfo: { token: SECRET } }) }),
      merge: () => ({ content: [] }),
      onEvent,
    })();
  } finally {
    await agent.close();
    await upstream.close();
  }
}
