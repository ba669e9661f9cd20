// Which tool call a door's note belongs to. Where the runtime has AsyncLocalStorage (Node, Bun,
// Deno, workerd with nodejs_compat) each call carries its own record through every await. It
// is looked up at run time, never imported: the main entry must load where node:async_hooks
// does not exist (browsers, workerd without nodejs_compat). There, a note goes to the call that
// ran alone when the door sent its request (the doors take the call then): two concurrent calls
// are never mixed, they just lose the upgrade.

import {
  type CallNotes,
  listenToCalls,
  type NotedCredentials,
  notesOfRequest,
} from "./call-notes.js";
import type { SentRequest } from "./watched.js";

/** What one tool call has heard from the doors so far. */
export class CallRecord implements CallNotes {
  /** The last throttle seen, unless an upstream answered after it. */
  last: object | undefined;
  /** The credentials of the request `last` answered, when its door knew them. */
  credentials: (() => NotedCredentials) | undefined;
  /** The cooldown of the server the call belongs to, for doors that have none of their own. */
  readonly cooldown: object | undefined;
  /** The rate_limited results the library built during the call. */
  readonly results: object[] = [];
  #closed = false;

  /** The call this one runs inside (a tool adopted twice), told of the results built here. */
  readonly #outer: CallRecord | undefined;

  constructor(cooldown?: object, outer?: CallRecord) {
    this.cooldown = cooldown;
    this.#outer = outer;
  }

  throttle(
    error: object,
    credentials?: (() => NotedCredentials) | undefined,
    sent?: SentRequest | undefined,
  ): void {
    if (this.#closed) return;
    // A cooldown hit restates a throttle this call already heard from the upstream, with fewer
    // words (a store keeps no message): the upstream's own answer stands.
    if (this.last !== undefined && (error as { delaySource?: unknown }).delaySource === "cooldown")
      return;
    this.last = error;
    this.credentials = credentials;
    if (sent !== undefined || this.#heard !== undefined) this.#hear({ error, credentials, sent });
  }

  answered(sent?: SentRequest | undefined): void {
    if (this.#closed) return;
    // A retry that worked stands: the throttle before it is no longer the call's outcome.
    this.last = undefined;
    this.credentials = undefined;
    if (sent !== undefined || this.#heard !== undefined) this.#hear({ sent });
  }

  /**
   * What the doors told, in order, once one of them watches its request: kept so that the
   * call's outcome can be settled by the requests its tool took up alone.
   */
  #heard: Heard[] | undefined;

  #hear(note: Heard): void {
    this.#heard ??= [];
    if (this.#heard.length < 256) this.#heard.push(note);
  }

  built(result: object): void {
    // A handful at most: a call that builds more keeps the first few it can vouch for.
    if (!this.#closed && this.results.length < 64) this.results.push(result);
    this.#outer?.built(result);
  }

  /**
   * Whether the library built this result during the call: the object itself, or a copy of one
   * (the SDKs, 1.x and 2.x, hand back a schema-parsed copy of what the tool returned).
   */
  vouchesFor(result: object): boolean {
    if (this.results.length === 0) return false;
    if (this.results.includes(result)) return true;
    const copy = canonical(result);
    return copy !== undefined && this.results.some((built) => canonical(built) === copy);
  }

  /**
   * The call's answer is settled: what its handler awaited decided it. A request it sent and
   * left running (fire and forget) answers after that, and its throttle is no longer this
   * call's outcome.
   */
  close(): void {
    this.#closed = true;
    // A request the tool sent and never took up (`void fetch(…)`) settles nothing: the outcome
    // is what the requests it awaited said, in the order they said it.
    const heard = this.#heard;
    if (heard === undefined) return;
    this.last = undefined;
    this.credentials = undefined;
    for (const note of heard) {
      if (note.sent !== undefined && !note.sent.consumed) continue;
      this.last = note.error;
      this.credentials = note.error === undefined ? undefined : note.credentials;
    }
  }
}

/** One note a call heard: a throttle (`error`), or an answer (no `error`). */
interface Heard {
  error?: object;
  credentials?: (() => NotedCredentials) | undefined;
  sent: SentRequest | undefined;
}

/** JSON with every object's keys in order, so a copy in another key order reads the same. */
function canonical(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, inner: unknown) =>
      inner !== null && typeof inner === "object" && !Array.isArray(inner)
        ? Object.fromEntries(
            Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
              a < b ? -1 : a > b ? 1 : 0,
            ),
          )
        : inner,
    );
  } catch {
    return undefined;
  }
}

/**
 * A call inside a call: a tool wrapped with its own `cooldown` on an adopted server (its doors
 * use its cooldown), or one request a door watches (what is heard of it is marked as that
 * request's). What its doors hear goes on to the call around it.
 */
class NestedRecord extends CallRecord {
  readonly #outer: CallRecord | undefined;
  readonly #sent: SentRequest | undefined;

  constructor(outer: CallRecord | undefined, cooldown: object | undefined, sent?: SentRequest) {
    super(cooldown, outer);
    this.#outer = outer;
    this.#sent = sent;
  }

  override throttle(
    error: object,
    credentials?: (() => NotedCredentials) | undefined,
    sent?: SentRequest | undefined,
  ): void {
    this.#outer?.throttle(error, credentials, sent ?? this.#sent);
  }

  override answered(sent?: SentRequest | undefined): void {
    this.#outer?.answered(sent ?? this.#sent);
  }
}

/**
 * Runs `fn` with `cooldown` as the cooldown of the doors it calls that have none of their own.
 * Where calls are told apart one at a time (no AsyncLocalStorage) nothing is nested: `fn` runs
 * as it is, and its doors use the cooldown of the call around it, if any.
 */
export function withCallCooldown<T>(cooldown: object, fn: () => T | Promise<T>): T | Promise<T> {
  const scope = callScope();
  if (scope.mode !== "async-context") return fn();
  return scope.run(new NestedRecord(scope.current(), cooldown), async () => fn());
}

/**
 * Runs one request of a door as `sent`'s: every door under it (the global dispatcher's observer
 * included) marks what it hears as that request's. Where calls are told apart one at a time,
 * `fn` is given notes that do so for the door itself.
 */
export function withSentRequest<T>(
  sent: SentRequest,
  fn: (notes: CallNotes | undefined) => Promise<T>,
): Promise<T> {
  const scope = callScope();
  const outer = scope.current();
  if (outer === undefined) return fn(undefined);
  if (scope.mode !== "async-context") return fn(notesOfRequest(outer, sent));
  return scope.run(new NestedRecord(outer, outer.cooldown, sent), () => fn(undefined));
}

interface Storage {
  run<T>(store: CallRecord, fn: () => T): T;
  getStore(): CallRecord | undefined;
}

type StorageClass = new () => Storage;

/** AsyncLocalStorage from the runtime, when it has one, without a static import. */
function storageClass(): StorageClass | undefined {
  const fromGlobal = (globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage;
  if (typeof fromGlobal === "function") return fromGlobal as StorageClass;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
      .process;
    const hooks = proc?.getBuiltinModule?.("node:async_hooks") as
      | { AsyncLocalStorage?: unknown }
      | undefined;
    const found = hooks?.AsyncLocalStorage;
    return typeof found === "function" ? (found as StorageClass) : undefined;
  } catch {
    return undefined;
  }
}

/** How calls are told apart: `"async-context"` per call, `"single-call"` one call at a time. */
export type ScopeMode = "async-context" | "single-call";

interface Scope {
  mode: ScopeMode;
  run<T>(record: CallRecord, fn: () => Promise<T>): Promise<T>;
  current(): CallRecord | undefined;
}

function makeScope(Storage: StorageClass | undefined): Scope {
  if (Storage !== undefined) {
    const storage = new Storage();
    return {
      mode: "async-context",
      run: (record, fn) => storage.run(record, fn),
      current: () => storage.getStore(),
    };
  }
  const active = new Set<CallRecord>();
  return {
    mode: "single-call",
    run: async (record, fn) => {
      active.add(record);
      try {
        return await fn();
      } finally {
        active.delete(record);
      }
    },
    current: () => (active.size === 1 ? active.values().next().value : undefined),
  };
}

let scope: Scope | undefined;

/** The process's scope, made (and given to the doors) on first use. */
export function callScope(): Scope {
  if (scope === undefined) {
    const made = makeScope(storageClass());
    scope = made;
    listenToCalls(() => made.current(), withSentRequest);
  }
  return scope;
}

/** A scope without AsyncLocalStorage, for tests of the fallback; `reset` puts the real one back. */
export function useScopeForTests(mode: ScopeMode | "reset"): void {
  scope = undefined;
  listenToCalls(undefined);
  if (mode === "single-call") {
    const made = makeScope(undefined);
    scope = made;
    listenToCalls(() => made.current(), withSentRequest);
  }
}
