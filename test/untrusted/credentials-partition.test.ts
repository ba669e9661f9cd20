// The cooldown partition follows the upstream credential, not the resource a caller asks for: a
// path segment shaped like a token (a Google Drive file id) beside a real credential is a
// resource name, and must not give each resource its own partition of one key's cooldown.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ message: "slow down" }));
  });
});
afterAll(() => upstream.close());

const fileA = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms";
const fileB = "2CyjNWt1YSB6oGNeLwCeCakhnVVrqumct85PhwF3vqnt";

describe("the cooldown partition and token-shaped path segments", () => {
  it("is one partition for one key whatever token-shaped resource id the path names", async () => {
    const drive = throttledFetch({ limit: "drive", cooldown: {} });
    const init = { headers: { authorization: "Bearer ya29.the-server-key" } };
    await expect(drive(`${upstream.url}/files/${fileA}`, init)).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    const before = upstream.requests;
    await expect(drive(`${upstream.url}/files/${fileB}`, init)).rejects.toMatchObject({
      delaySource: "cooldown",
    });
    expect(upstream.requests).toBe(before);
  });

  it("keeps a token in the path as the credential when the request carries no other", async () => {
    const telegram = throttledFetch({ limit: "telegram", cooldown: {} });
    await expect(telegram(`${upstream.url}/bot1:${fileA}/sendMessage`)).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    // Another bot's token: another credential, so another partition.
    await expect(telegram(`${upstream.url}/bot2:${fileB}/sendMessage`)).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    await expect(telegram(`${upstream.url}/bot1:${fileA}/getMe`)).rejects.toMatchObject({
      delaySource: "cooldown",
    });
  });

  it.each(["pageToken", "page_token", "nextPageToken", "next_token", "continuationToken"])(
    "is one partition for one key whatever page a `%s` query parameter asks for",
    async (name) => {
      const youtube = throttledFetch({ limit: `youtube-${name}`, cooldown: {} });
      const page = (token: string) => `${upstream.url}/search?key=the-server-key&${name}=${token}`;
      await expect(youtube(page("CAUQAA"))).rejects.toMatchObject({ delaySource: "retry-after" });
      const before = upstream.requests;
      await expect(youtube(page("CAoQAA"))).rejects.toMatchObject({ delaySource: "cooldown" });
      expect(upstream.requests).toBe(before);
    },
  );
});
