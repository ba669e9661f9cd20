// Hostile tools/call handlers: whatever a handler that meets no throttle throws or returns, an
// adopted server answers the client exactly as the server did before it was adopted.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { RATE_LIMIT_RPC_CODES } from "../../src/signals/detect.js";

type Behaviour = { kind: "return"; value: unknown } | { kind: "throw" | "reject"; value: unknown };

function handlerOf(behaviour: Behaviour) {
  if (behaviour.kind === "throw") {
    return () => {
      throw behaviour.value;
    };
  }
  if (behaviour.kind === "reject") return async () => Promise.reject(behaviour.value);
  return async () => behaviour.value as never;
}

/** What the client sees of one call: the result, or the error's code and message. */
async function outcome(behaviour: Behaviour, adopt: boolean): Promise<unknown> {
  const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  if (adopt) throttleServer(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, handlerOf(behaviour));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    // A result the SDK cannot send leaves the call unanswered: the same timeout either way.
    return { ok: await client.callTool({ name: "x", arguments: {} }, undefined, { timeout: 300 }) };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  } finally {
    await client.close();
  }
}

const code = fc.integer({ min: -33000, max: 1000 }).filter((n) => !RATE_LIMIT_RPC_CODES.has(n));
const thrown = fc.oneof(
  fc.string().map((message) => new Error(message)),
  fc.record({ message: fc.string(), code }).map(({ message, code }) => {
    const error = new Error(message) as Error & { code: number };
    error.code = code;
    return error;
  }),
  fc.string(),
  fc.integer(),
  fc.constantFrom(undefined, null, {}, []),
);
const returned = fc.oneof(
  fc.constantFrom(undefined, null, 0, "", [], {}),
  fc.string(),
  fc.record({ content: fc.constant([{ type: "text", text: "hi" }]), isError: fc.boolean() }),
  fc.jsonValue(),
);
const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  returned.map((value) => ({ kind: "return" as const, value })),
  thrown.map((value) => ({ kind: "throw" as const, value })),
  thrown.map((value) => ({ kind: "reject" as const, value })),
);

describe("throttleServer and a handler that meets no throttle", () => {
  it("answers what the server answered before, whatever the handler throws or returns", async () => {
    await fc.assert(
      fc.asyncProperty(behaviour, async (given) => {
        expect(await outcome(given, true)).toStrictEqual(await outcome(given, false));
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
