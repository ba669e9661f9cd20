// fastmcp served statelessly (`httpStream: { stateless: true }`) makes a session per request and
// announces none, so `throttleServer` reaches only the tools it saw added. Before such a start,
// the tools fastmcp would serve are read once, through a session that never connects, and a tool
// `throttleServer` did not see refuses the start: never a server silently served unadopted.

/** How long the tools are waited for before a stateless start is refused as unreadable. */
const PROBE_TIMEOUT_MS = 2000;

interface Probed {
  connect?: (transport: object) => Promise<unknown>;
}

/**
 * Whether fastmcp's `start(options)` will serve statelessly: its `httpStream.stateless`, else
 * its `--stateless true` argument, else `FASTMCP_STATELESS=true`, as fastmcp reads them.
 */
export function servedStatelessly(options: unknown): boolean {
  const stateless = (options as { httpStream?: { stateless?: unknown } } | null | undefined)
    ?.httpStream?.stateless;
  if (stateless === true) return true;
  const proc = (globalThis as { process?: { argv?: unknown; env?: Record<string, unknown> } })
    .process;
  const argv = Array.isArray(proc?.argv) ? (proc.argv as unknown[]).slice(2) : [];
  const index = argv.indexOf("--stateless");
  if (index !== -1 && argv[index + 1] === "true") return true;
  return proc?.env?.FASTMCP_STATELESS === "true";
}

/** Throws, naming them, when fastmcp would serve a tool `throttleServer` never saw added. */
export async function assertAllAdopted(
  server: Probed,
  adopted: ReadonlySet<string>,
): Promise<void> {
  const names = await servedToolNames(server);
  if (names === undefined) {
    throw new Error(
      "throttleServer could not read the tools of this FastMCP before its stateless start, so it cannot tell whether each is adopted; call `throttleServer` before `addTool`, and report the fastmcp version",
    );
  }
  const missed = names.filter((name) => !adopted.has(name));
  if (missed.length === 0) return;
  throw new Error(
    `throttleServer cannot reach tools added to a FastMCP before it when the server is served statelessly (a session per request, none announced): ${missed.map((name) => JSON.stringify(name)).join(", ")}. Call \`throttleServer(server)\` before \`addTool\`.`,
  );
}

/**
 * The names fastmcp's own `tools/list` answers, asked through `connect` on a transport whose
 * `start` fails once it has the answer: fastmcp then neither keeps nor announces that session.
 */
async function servedToolNames(server: Probed): Promise<string[] | undefined> {
  if (typeof server.connect !== "function") return undefined;
  let answer: (message: unknown) => void = () => {};
  const answered = new Promise<unknown>((resolve) => {
    answer = resolve;
  });
  // fastmcp answers at once; a version that never does must not hold `start` forever.
  const timer = setTimeout(() => answer(undefined), PROBE_TIMEOUT_MS);
  const probe = {
    onmessage: undefined as ((message: unknown) => void) | undefined,
    async start() {
      this.onmessage?.({ jsonrpc: "2.0", id: 0, method: "tools/list", params: {} });
      await answered;
      throw new Error("tools read");
    },
    async send(message: unknown) {
      answer(message);
    },
    async close() {},
  };
  try {
    await server.connect(probe);
  } catch {
    // expected: the probe's start always fails
  }
  answer(undefined); // a connect that failed before asking
  clearTimeout(timer);
  const reply = (await answered) as { result?: { tools?: unknown }; error?: unknown } | undefined;
  if (reply?.error !== undefined) return []; // no tools/list handler: fastmcp has no tools
  const tools = reply?.result?.tools;
  if (!Array.isArray(tools)) return undefined;
  return tools
    .map((tool) => (tool as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === "string");
}
