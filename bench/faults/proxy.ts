// A loopback TCP proxy between the replicas and Redis, to inject network faults: a delay on
// every chunk, a freeze of every connection (nothing read either way: TCP backpressure, as a
// stalled network does), a blackhole of one connection kind (the subscriber connections: their
// bytes held back as a dropped route holds them, delivered when it comes back), and resets (of
// every connection, or of each with some chance).

import { createConnection, createServer, type Server, type Socket } from "node:net";

interface Pair {
  client: Socket;
  server: Socket;
  /** The connection has sent SUBSCRIBE: a subscriber. */
  subscriber: boolean;
}

export class FaultProxy {
  readonly #pairs = new Set<Pair>();
  #server: Server | undefined;
  delayMs = 0;
  #frozen = false;
  #blackholed = false;
  port = 0;

  async start(targetPort: number): Promise<void> {
    this.#server = createServer((client) => {
      const server = createConnection({ host: "127.0.0.1", port: targetPort });
      const pair: Pair = { client, server, subscriber: false };
      this.#pairs.add(pair);
      const end = () => {
        this.#pairs.delete(pair);
        client.destroy();
        server.destroy();
      };
      client.on("error", end).on("close", end);
      server.on("error", end).on("close", end);
      client.on("data", (data: Buffer) => {
        if (!pair.subscriber && /subscribe/i.test(data.toString("latin1"))) pair.subscriber = true;
        this.#forward(server, data);
      });
      server.on("data", (data: Buffer) => this.#forward(client, data));
      this.#apply(pair);
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    this.port = typeof address === "object" && address !== null ? address.port : 0;
  }

  #forward(to: Socket, data: Buffer): void {
    if (this.delayMs > 0) setTimeout(() => to.destroyed || to.write(data), this.delayMs);
    else to.write(data);
  }

  /** Stops (or restarts) reading the sockets a fault holds. */
  #apply(pair: Pair): void {
    const hold = this.#frozen || (this.#blackholed && pair.subscriber);
    for (const socket of [pair.client, pair.server]) {
      if (hold) socket.pause();
      else socket.resume();
    }
  }

  #applyAll(): void {
    for (const pair of this.#pairs) this.#apply(pair);
  }

  freeze(on: boolean): void {
    this.#frozen = on;
    this.#applyAll();
  }

  blackholeSubscribers(on: boolean): void {
    this.#blackholed = on;
    this.#applyAll();
  }

  /** Resets every connection (both sides see the socket end at once). */
  reset(): void {
    for (const pair of this.#pairs) {
      pair.client.resetAndDestroy();
      pair.server.resetAndDestroy();
    }
  }

  /** Resets each connection with probability `chance` (one draw per connection). */
  resetSome(chance: number): void {
    for (const pair of this.#pairs) {
      if (Math.random() >= chance) continue;
      pair.client.resetAndDestroy();
      pair.server.resetAndDestroy();
    }
  }

  async close(): Promise<void> {
    for (const pair of this.#pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
