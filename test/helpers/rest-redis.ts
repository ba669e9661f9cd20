// A local bridge that speaks the part of Upstash's REST protocol a Redis client over HTTP uses
// (`@upstash/redis`), in front of a real redis-server: the Redis answers are Redis's own.
//
// Covered: `POST /` with a JSON command array (`["SET","k","v","PX","1000"]`), `POST /pipeline`
// with an array of them, `Authorization: Bearer <token>` (401 otherwise), `{ result }` and
// `{ error }` bodies (400 for a Redis error), and `Upstash-Encoding: base64` (bulk strings sent
// base64, `OK` as is). Not covered: the path form (`GET /get/<key>`), `/multi-exec`, read-your-
// writes sync tokens (none sent, which the client accepts), streaming (SUBSCRIBE, MONITOR).
// `delayMs` holds every answer back, as a store a network away would.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Redis } from "ioredis";

export interface RestRedisBridge {
  url: string;
  token: string;
  /** Added before every answer, in milliseconds (latency injection). */
  delayMs: number;
  /** Commands received (each of a pipeline counts). */
  readonly commands: number;
  /** Runs a command on the Redis behind the bridge, for setting up and inspecting. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

const encode = (value: unknown): unknown => {
  if (typeof value === "string")
    return value === "OK" ? value : Buffer.from(value).toString("base64");
  return Array.isArray(value) ? value.map(encode) : value;
};

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** Starts the bridge on 127.0.0.1, port 0, in front of the Redis at `redisUrl`. */
export async function startRestRedisBridge(redisUrl: string): Promise<RestRedisBridge> {
  const redis = new Redis(redisUrl);
  redis.on("error", () => {});
  const token = `token-${Math.random().toString(36).slice(2)}`;
  let commands = 0;
  const run = async (command: unknown, base64: boolean) => {
    commands += 1;
    if (!Array.isArray(command) || command.length === 0) return { error: "ERR bad command" };
    try {
      const [name, ...args] = command.map(String) as [string, ...string[]];
      const result = await redis.call(name, ...args);
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, json: unknown) => {
      setTimeout(() => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(json));
      }, bridge.delayMs);
    };
    if (request.headers.authorization !== `Bearer ${token}`)
      return send(401, { error: "Unauthorized" });
    const base64 = request.headers["upstash-encoding"] === "base64";
    const path = new URL(request.url ?? "/", "http://bridge").pathname;
    const parsed = await body(request).catch(() => undefined);
    if (path === "/pipeline" && Array.isArray(parsed)) {
      return send(200, await Promise.all(parsed.map((command) => run(command, base64))));
    }
    if (path !== "/") return send(404, { error: `not covered by the bridge: ${path}` });
    const reply = await run(parsed, base64);
    send("error" in reply ? 400 : 200, reply);
  };
  const server = createServer((request, response) => void answer(request, response));
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const bridge: RestRedisBridge = {
    url: `http://127.0.0.1:${port}`,
    token,
    delayMs: 0,
    get commands() {
      return commands;
    },
    command: (name, ...args) => redis.call(name, ...args),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
  return bridge;
}
