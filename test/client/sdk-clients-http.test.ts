// The SDK 1.x and 2.x clients over Streamable HTTP (the cells in helpers/sdk-cells.ts), and the
// server's own limit answered with an HTTP 429 in front of the transport.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readThrottle, type ThrottleEvent, throttleAwareClient } from "../../src/client/index.js";
import { callArgs, connectClient, type SdkClient } from "./helpers/clients.js";
import { describeSdkCells } from "./helpers/sdk-cells.js";
import { useServers } from "./helpers/use-servers.js";

const servers = useServers();

describeSdkCells(servers, [
  ["sdk-1.x", "streamable-http"],
  ["sdk-2.x", "streamable-http"],
]);

describe.each(["sdk-1.x", "sdk-2.x"] as const)(
  "%s: the server's own limit as an HTTP 429 in front of the transport",
  (kind) => {
    let client: SdkClient;
    let events: ThrottleEvent[];
    const honoured = () => throttleAwareClient(client, { onEvent: (event) => events.push(event) });

    beforeAll(async () => {
      const { host, upstream } = servers;
      client = await connectClient(kind, "streamable-http", {
        url: host.url,
        upstreamUrl: upstream.url,
      });
    });

    afterAll(async () => {
      await client.close();
    });

    beforeEach(() => {
      events = [];
    });

    it("waits out a 429 whose body is the SEP-3304 error, within budget", async () => {
      servers.host.gate.refuse({ status: 429, data: { retryAfterMs: 200 } });
      const result = await honoured().callTool(...callArgs(kind, "status"));
      expect(readThrottle(result)).toBeUndefined();
      // RL-9: the body's retryAfterMs (200), not the 429's `Retry-After: 30`, which the
      // transport never passes on.
      expect(events.find((event) => event.type === "throttle")).toMatchObject({
        retryAfterMs: 200,
      });
    });

    it("rethrows a 429 with no delay in its body at once, unchanged", async () => {
      servers.host.gate.refuse({ status: 429, body: "Too many requests" });
      const bare = await client
        .callTool(...callArgs(kind, "status"))
        .catch((error: unknown) => error);
      servers.host.gate.refuse({ status: 429, body: "Too many requests" });
      const error = await honoured()
        .callTool(...callArgs(kind, "status"))
        .catch((reason: unknown) => reason);
      expect(readThrottle(error)).toStrictEqual({ layer: "server", source: "status" });
      expect(error).toStrictEqual(bare);
      expect(events.map((event) => event.type)).toStrictEqual(["throttle"]);
    });
  },
);
