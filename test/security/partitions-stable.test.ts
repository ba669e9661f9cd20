// The cooldown partition follows the upstream's own limit: the stable part of the credential a
// request carried. One secret is one caller in whatever header family it travels, and a key that
// signs each request (AWS SigV4, OAuth 1.0a, a `?signature=` beside a key header) is one caller
// whatever its signature, nonce or timestamp, while redaction still cuts every one of them.
import { createHmac, randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Partitioner } from "../../src/cooldown/partition.js";
import {
  type CooldownEntry,
  type CooldownStore,
  MemoryCooldownStore,
  throttledFetch,
} from "../../src/index.js";
import { fetchCredentials } from "../../src/untrusted/credentials.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
/** What the upstream says back: every request's Authorization and query, echoed. */
beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ message: `slow down: ${req.headers.authorization} ${req.url}` }));
  });
});
afterAll(() => upstream.close());

/** A memory store that counts the keys written to it. */
function countingStore(): CooldownStore & { keys: Set<string> } {
  const memory = new MemoryCooldownStore();
  const keys = new Set<string>();
  return {
    keys,
    shared: false,
    get: (key) => memory.get(key),
    set: (key: string, entry: CooldownEntry, ttlMs: number) => {
      keys.add(key);
      return memory.set(key, entry, ttlMs);
    },
  };
}

const hex = () => randomBytes(32).toString("hex");

function sigV4(accessKey: string, signature = hex()): string {
  return (
    `AWS4-HMAC-SHA256 Credential=${accessKey}/20261203/us-east-1/s3/aws4_request, ` +
    `SignedHeaders=host;x-amz-date, Signature=${signature}`
  );
}

function oauth1(consumer: string, token: string, nonce = hex(), signature = hex()): string {
  return (
    `OAuth oauth_consumer_key="${consumer}", oauth_token="${token}", ` +
    `oauth_signature_method="HMAC-SHA1", oauth_nonce="${nonce}", ` +
    `oauth_signature="${encodeURIComponent(signature)}", oauth_timestamp="${Date.now()}", oauth_version="1.0"`
  );
}

/** Each call signed afresh, as the vendors' SDKs do. */
const signedRequests: Record<string, () => [string, RequestInit]> = {
  "AWS SigV4 (Authorization header)": () => [
    "/bucket/object",
    {
      headers: {
        authorization: sigV4("AKIDEXAMPLE"),
        "x-amz-date": new Date().toISOString(),
        "x-amz-content-sha256": hex(),
      },
    },
  ],
  "AWS SigV4 (presigned URL)": () => [
    `/bucket/object?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20261203%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261203T${String(Math.random()).slice(2, 8)}Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=${hex()}`,
    {},
  ],
  "OAuth 1.0a (X API)": () => ["/2/tweets", { headers: { authorization: oauth1("ck-1", "tk-1") } }],
  "Binance (key header, signed query)": () => {
    const query = `symbol=BTCUSDT&timestamp=${Date.now() + Math.random()}`;
    const signature = createHmac("sha256", "binance-secret").update(query).digest("hex");
    return [
      `/api/v3/order?${query}&signature=${signature}`,
      { headers: { "X-MBX-APIKEY": "binance-api-key-0001" } },
    ];
  },
};

describe("a key that signs every request", () => {
  it.each(Object.entries(signedRequests))(
    "%s: five throttled calls reach the upstream once and write one store key",
    async (name, sign) => {
      const store = countingStore();
      const api = throttledFetch({ limit: `signed-${name}`, cooldown: { store } });
      const before = upstream.requests;
      const sources: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const [path, init] = sign();
        const error = await api(`${upstream.url}${path}`, init).catch((e: unknown) => e);
        sources.push((error as { delaySource: string }).delaySource);
      }
      expect(upstream.requests - before).toBe(1);
      expect(sources).toStrictEqual(["retry-after", ...Array(4).fill("cooldown")]);
      expect(store.keys.size).toBe(1);
    },
  );

  it("writes one store key for twenty SigV4 throttles of one account", async () => {
    const store = countingStore();
    // No limit name: the scope is the host, as for a tool that names none.
    const s3 = throttledFetch({ cooldown: { store } });
    const inits = Array.from({ length: 20 }, () => ({
      headers: { authorization: sigV4("AKIDEXAMPLE") },
    }));
    await Promise.all(inits.map((init) => s3(`${upstream.url}/b/o`, init).catch(() => {})));
    expect(store.keys.size).toBe(1);
  });

  it("still cuts the signature, the nonce and every key out of the upstream's message", async () => {
    const api = throttledFetch({ limit: "oauth-redaction" });
    const signature = hex();
    const nonce = hex();
    const error = await api(`${upstream.url}/2/tweets`, {
      headers: { authorization: oauth1("consumer-key-0001", "token-value-0001", nonce, signature) },
    }).then(
      () => undefined,
      (e: unknown) => e as { upstreamMessage?: string },
    );
    const message = String(error?.upstreamMessage);
    expect(message).toMatch(/^slow down:.*\/2\/tweets$/);
    for (const secret of [signature, nonce, "consumer-key-0001", "token-value-0001"])
      expect(message).not.toContain(secret);
  });
});

describe("one secret in any header family", () => {
  const KEY = "sk-live-one-key-0001";
  const families: Record<string, RequestInit> = {
    "x-api-key": { headers: { "x-api-key": KEY } },
    "Authorization: Bearer": { headers: { authorization: `Bearer ${KEY}` } },
    "Authorization: token": { headers: { Authorization: `token ${KEY}` } },
    "a Basic password": {
      headers: { authorization: `Basic ${Buffer.from(`api:${KEY}`).toString("base64")}` },
    },
    "a Basic user without a password (Stripe)": {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
    },
  };

  it.each(Object.entries(families))(
    "after a throttle seen with x-api-key, a call with %s is answered from the cooldown",
    async (_name, init) => {
      const store = countingStore();
      const first = throttledFetch({ limit: "families", cooldown: { store } });
      const second = throttledFetch({ limit: "families", cooldown: { store } });
      await expect(
        first(`${upstream.url}/v1/a`, { headers: { "x-api-key": KEY } }),
      ).rejects.toMatchObject({ delaySource: "retry-after" });
      const before = upstream.requests;
      await expect(second(`${upstream.url}/v1/b`, init)).rejects.toMatchObject({
        delaySource: "cooldown",
      });
      expect(upstream.requests).toBe(before);
      expect(store.keys.size).toBe(1);
    },
  );

  it("keeps two different secrets two partitions", async () => {
    const store = countingStore();
    const api = throttledFetch({ limit: "two-secrets", cooldown: { store } });
    await api(`${upstream.url}/v1`, { headers: { "x-api-key": KEY } }).catch(() => {});
    await expect(
      api(`${upstream.url}/v1`, { headers: { authorization: "Bearer sk-live-other-key-0002" } }),
    ).rejects.toMatchObject({ delaySource: "retry-after" });
    expect(store.keys.size).toBe(2);
  });
});

describe("the partition of a signed request", () => {
  const partitioner = new Partitioner("a partition secret of 32 chars!!");
  const partitionOf = (url: string, headers: Record<string, string>) =>
    partitioner.of(fetchCredentials(url, { headers }));
  const token = fc.stringMatching(/^[A-Za-z0-9+/=_-]{1,64}$/);
  const key = fc.stringMatching(/^[A-Z0-9]{8,20}$/);

  it("is the same for any signature, nonce and timestamp, and differs for another key", () => {
    fc.assert(
      fc.property(key, key, token, token, token, token, (a, b, s1, s2, n1, n2) => {
        fc.pre(a !== b);
        const url = "https://s3.example.com/b/o";
        expect(partitionOf(url, { authorization: sigV4(a, s1) })).toBe(
          partitionOf(url, { authorization: sigV4(a, s2) }),
        );
        expect(partitionOf(url, { authorization: sigV4(a, s1) })).not.toBe(
          partitionOf(url, { authorization: sigV4(b, s1) }),
        );
        expect(partitionOf(url, { authorization: oauth1(a, "t", n1, s1) })).toBe(
          partitionOf(url, { authorization: oauth1(a, "t", n2, s2) }),
        );
        expect(partitionOf(url, { authorization: oauth1(a, "t", n1, s1) })).not.toBe(
          partitionOf(url, { authorization: oauth1(b, "t", n1, s1) }),
        );
        const signed = (sig: string, ts: string) =>
          `https://api.example.com/v3/order?timestamp=${encodeURIComponent(ts)}&signature=${encodeURIComponent(sig)}`;
        expect(partitionOf(signed(s1, n1), { "x-mbx-apikey": a })).toBe(
          partitionOf(signed(s2, n2), { "x-mbx-apikey": a }),
        );
        expect(partitionOf(signed(s1, n1), { "x-mbx-apikey": a })).not.toBe(
          partitionOf(signed(s1, n1), { "x-mbx-apikey": b }),
        );
        const presigned = (k: string, sig: string) =>
          `https://s3.example.com/b/o?X-Amz-Credential=${k}%2F20261203%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${encodeURIComponent(sig)}`;
        expect(partitionOf(presigned(a, s1), {})).toBe(partitionOf(presigned(a, s2), {}));
        expect(partitionOf(presigned(a, s1), {})).toBe(
          partitionOf(url, { authorization: sigV4(a, s2) }),
        );
        expect(partitionOf(presigned(a, s1), {})).not.toBe(partitionOf(presigned(b, s1), {}));
      }),
      { numRuns: 200 },
    );
  });

  it("is stable for a request carrying two credentials, in either order", () => {
    const url = "https://api.example.com/v1";
    const one = partitionOf(url, { "x-api-key": "key-0001", "x-auth-token": "tok-0001" });
    const other = partitionOf(url, { "x-auth-token": "tok-0001", "x-api-key": "key-0001" });
    expect(one).toBe(other);
    expect(one).not.toBe(partitionOf(url, { "x-api-key": "key-0001" }));
  });
});
