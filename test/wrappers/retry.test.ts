import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { isUpstreamRateLimitedError, type ThrottleEvent, throttledFetch } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** Throttles the first `throttled` requests with `retryAfter`, then answers 200. */
/** Puts `setTimeout` on simulated time for this test: the upstream stays real loopback HTTP. */
function fakeTimeouts() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

/** An `onEvent` and a promise that resolves at the first throttle event (the wait begins). */
function throttleHeard() {
  let resolve = () => {};
  const heard = new Promise<void>((done) => {
    resolve = done;
  });
  const onEvent = (event: ThrottleEvent) => {
    if (event.type === "throttle") resolve();
  };
  return { heard, onEvent };
}

async function throttlingFirst(throttled: number, retryAfter: string) {
  let seen = 0;
  upstream = await startServer((_req, res) => {
    seen += 1;
    if (seen <= throttled) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter });
      res.end('{"message":"slow down"}');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  return upstream;
}

describe("retry in place on throttledFetch", () => {
  it("waits out a 1 s delay once and returns the success", async () => {
    fakeTimeouts();
    const { url } = await throttlingFirst(1, "1");
    const { heard, onEvent } = throttleHeard();
    const pending = throttledFetch({ retry: true, onEvent })(url);
    await heard;
    // It does wait: the retry is not sent before the upstream's second has passed.
    await vi.advanceTimersByTimeAsync(999);
    expect(upstream?.requests).toBe(1);
    await vi.advanceTimersByTimeAsync(101); // the jitter adds at most 100 ms to a 1 s delay
    const response = await pending;
    expect(response.status).toBe(200);
    expect(upstream?.requests).toBe(2);
  });

  it("returns a 30 s delay at once, without a second request", async () => {
    const { url } = await throttlingFirst(1, "30");
    const error = await throttledFetch({ retry: true })(url).catch((reason: unknown) => reason);
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterSeconds: 30 });
    expect(upstream?.requests).toBe(1);
  });

  it("stops at maxAttempts and returns the last throttle", async () => {
    const { url } = await throttlingFirst(5, "0");
    const error = await throttledFetch({ retry: { maxAttempts: 2 } })(url).catch(
      (reason: unknown) => reason,
    );
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(upstream?.requests).toBe(3);
  });

  it("ends the wait the moment the caller aborts", async () => {
    fakeTimeouts();
    const { url } = await throttlingFirst(1, "2");
    const controller = new AbortController();
    const { heard, onEvent } = throttleHeard();
    const pending = throttledFetch({ retry: { maxWaitMs: 5000 }, onEvent })(url, {
      signal: controller.signal,
    });
    await heard;
    await vi.advanceTimersByTimeAsync(100); // 100 ms into the 2 s wait
    controller.abort(new Error("the user cancelled"));
    await expect(pending).rejects.toThrow("the user cancelled");
    expect(upstream?.requests).toBe(1);
  });

  it("does not retry a POST unless told to", async () => {
    const { url } = await throttlingFirst(1, "0");
    const error = await throttledFetch({ retry: true })(url, { method: "POST", body: "{}" }).catch(
      (reason: unknown) => reason,
    );
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(upstream?.requests).toBe(1);
    const response = await throttledFetch({ retry: { methods: ["POST"] } })(url, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(200);
  });

  it("does not retry on a configured default delay: that is a guess, not the upstream's word", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429);
      res.end();
    });
    const error = await throttledFetch({ retry: true, defaultRetryAfterSeconds: 1 })(
      upstream.url,
    ).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ delaySource: "default" });
    expect(upstream.requests).toBe(1);
  });

  it("rejects bad retry options, naming them", () => {
    expect(() => throttledFetch({ retry: { maxWaitMs: -1 } })).toThrow(/`retry.maxWaitMs`/);
    expect(() => throttledFetch({ retry: { maxAttempts: 1.5 } })).toThrow(/`retry.maxAttempts`/);
    expect(() => throttledFetch({ retry: 3 as never })).toThrow(/`retry`/);
  });
});

describe("retry never resends a spent body, nor waits less than asked (issue 17 items 10, 14)", () => {
  it("returns the throttle for an async-generator body on PUT: no empty second upload", async () => {
    const bodies: number[] = [];
    upstream = await startServer((req, res) => {
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
      });
      req.on("end", () => {
        bodies.push(size);
        if (bodies.length === 1) res.writeHead(429, { "retry-after": "0" });
        else res.writeHead(200);
        res.end();
      });
    });
    async function* upload() {
      yield new Uint8Array(1000);
    }
    const call = throttledFetch({ retry: true })(upstream.url, {
      method: "PUT",
      body: upload() as never,
      duplex: "half",
    } as RequestInit);
    await expect(call).rejects.toMatchObject({ name: "UpstreamRateLimitedError" });
    expect(bodies).toStrictEqual([1000]);
  });

  it("returns the throttle for a Node Readable body, instead of a 'disturbed' TypeError", async () => {
    const { Readable } = await import("node:stream");
    const { url } = await throttlingFirst(1, "0");
    const call = throttledFetch({ retry: true })(url, {
      method: "PUT",
      body: Readable.from([Buffer.from("payload")]) as never,
      duplex: "half",
    } as RequestInit);
    await expect(call).rejects.toMatchObject({ name: "UpstreamRateLimitedError" });
    expect(upstream?.requests).toBe(1);
  });

  it("still retries a body that can be sent twice (a string), with the same bytes", async () => {
    const bodies: string[] = [];
    upstream = await startServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      req.on("end", () => {
        bodies.push(text);
        res.writeHead(bodies.length === 1 ? 429 : 200, { "retry-after": "0" });
        res.end();
      });
    });
    const response = await throttledFetch({ retry: true })(upstream.url, {
      method: "PUT",
      body: "same bytes",
    });
    expect(response.status).toBe(200);
    expect(bodies).toStrictEqual(["same bytes", "same bytes"]);
  });

  it("a delay near the timer's limit is not cut short by an overflowing timer", async () => {
    // Vitest's fake timers fire a delay over 2^31-1 ms after 1 ms, as Node's timers do.
    fakeTimeouts();
    const { url } = await throttlingFirst(1, "2147000");
    const controller = new AbortController();
    const { heard, onEvent } = throttleHeard();
    const pending = throttledFetch({
      retry: { maxWaitMs: 2 ** 31 - 1 },
      maxRetryAfterSeconds: 2_147_483,
      onEvent,
    })(url, {
      signal: controller.signal,
    });
    await heard;
    await vi.advanceTimersByTimeAsync(300);
    // An overflowing timer fires after 1 ms: the second request would be sent by now.
    expect(upstream?.requests).toBe(1);
    controller.abort(new Error("done waiting"));
    await expect(pending).rejects.toThrow("done waiting");
  });
});

describe("retry events", () => {
  /** A fetch that throttles with a 1 s Retry-After, then answers 200; it counts its calls. */
  function cannedUpstream(throttled: number) {
    const sent: number[] = [];
    const fetchLike: typeof fetch = async () => {
      sent.push(sent.length + 1);
      return sent.length <= throttled
        ? new Response("", { status: 429, headers: { "retry-after": "1" } })
        : new Response("{}", { status: 200 });
    };
    return { sent, fetchLike };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it("publishes no retry event for a wait the caller aborted: no retry was sent", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { sent, fetchLike } = cannedUpstream(1);
    const events: ThrottleEvent[] = [];
    const controller = new AbortController();
    const api = throttledFetch({ fetch: fetchLike, retry: true, onEvent: (e) => events.push(e) });
    const pending = api("https://api.example.com/a", { signal: controller.signal }).catch(
      (reason: unknown) => reason,
    );
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error("the user cancelled"));
    expect(await pending).toMatchObject({ message: "the user cancelled" });
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual([1]);
    expect(events.map((event) => event.type)).toEqual(["throttle"]);
  });

  it("publishes one retry event once the wait is over, as the retry is sent", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { sent, fetchLike } = cannedUpstream(1);
    const events: ThrottleEvent[] = [];
    const api = throttledFetch({ fetch: fetchLike, retry: true, onEvent: (e) => events.push(e) });
    const pending = api("https://api.example.com/a");
    await vi.advanceTimersByTimeAsync(900);
    // Still waiting: nothing is retried yet, so nothing says so.
    expect(events.map((event) => event.type)).toEqual(["throttle"]);
    await vi.advanceTimersByTimeAsync(300);
    expect((await pending).status).toBe(200);
    expect(sent).toEqual([1, 2]);
    expect(events.map((event) => event.type)).toEqual(["throttle", "retry"]);
    expect(events[1]).toMatchObject({ attempt: 1, source: "throttledFetch", status: 429 });
  });
});
