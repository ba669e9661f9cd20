// What a call says about itself before it is made, read from the arguments the way the client
// libraries take them. Never throws: the arguments are the caller's, not ours to validate.

import { isObject } from "../internal/is-object.js";

/**
 * The tool name of `callTool({ name, arguments }, …)` (the SDKs, `@ai-sdk/mcp`'s `{ name, args }`)
 * or `callTool(name, args, …)` (OpenAI Agents, mcp-use).
 */
export function toolName(args: readonly unknown[]): string | undefined {
  try {
    const [params] = args;
    if (typeof params === "string") return params;
    return isObject(params) && typeof params.name === "string" ? params.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The signal of the first object argument after the first that carries one: SDK 1.x
 * `callTool(params, resultSchema, { signal })`, SDK 2.x `callTool(params, { signal })`, OpenAI
 * Agents `callTool(name, args, meta, { signal })`; or the one in the first argument's `options`:
 * `@ai-sdk/mcp` 1.x `callTool({ name, args, options: { abortSignal } })`, 2.x
 * `callTool({ name, arguments, options: { signal } })`. Both spellings are read everywhere.
 */
export function findSignal(args: readonly unknown[]): AbortSignal | undefined {
  try {
    const [params] = args;
    const inParams = signalOf(isObject(params) ? params.options : undefined);
    if (inParams !== undefined) return inParams;
    for (const arg of args.slice(1)) {
      const signal = signalOf(arg);
      if (signal !== undefined) return signal;
    }
  } catch {
    // An argument that cannot be read carries no signal.
  }
  return undefined;
}

/** The `signal` or `abortSignal` of an options object, as the frameworks spell it. Never throws. */
export function signalOf(options: unknown): AbortSignal | undefined {
  try {
    if (!isObject(options)) return undefined;
    const { signal, abortSignal } = options;
    if (isAbortSignal(signal)) return signal;
    return isAbortSignal(abortSignal) ? abortSignal : undefined;
  } catch {
    return undefined;
  }
}

export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    isObject(value) &&
    typeof value.aborted === "boolean" &&
    typeof value.addEventListener === "function" &&
    typeof value.removeEventListener === "function"
  );
}
