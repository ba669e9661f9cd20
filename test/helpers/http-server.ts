import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface TestServer {
  url: string;
  server: Server;
  /** Connections accepted since start. */
  readonly connectionsOpened: number;
  /** Connections open now. */
  readonly connectionsOpen: number;
  /** Connections open now that have carried at least one request (idle pre-connects excluded). */
  readonly usedConnectionsOpen: number;
  /** Requests received. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1, port 0, that counts its connections. */
export async function startServer(listener: RequestListener): Promise<TestServer> {
  const used = new WeakSet<Socket>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    used.add(req.socket);
    listener(req, res);
  });
  const open = new Set<Socket>();
  let opened = 0;
  server.on("connection", (socket) => {
    opened += 1;
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    get connectionsOpened() {
      return opened;
    },
    get connectionsOpen() {
      return open.size;
    },
    get usedConnectionsOpen() {
      return [...open].filter((socket) => used.has(socket)).length;
    },
    get requests() {
      return requests;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a canned upstream answers: a status, headers, and a JSON (or text) body. */
export interface CannedReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A listener that answers every request with `current()`, the body as JSON unless a string. */
export function cannedReply(current: () => CannedReply): RequestListener {
  return (req, res) => {
    req.resume();
    const { status, headers, body } = current();
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(text);
  };
}

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}
