// A server built per request (the SDK's stateless Streamable HTTP pattern) answers the client's
// `tools/list` on one instance and its `tools/call` on another: the instance placing a
// rate_limited result never saw what the client was told of the tool's output schema. It asks
// its own `tools/list` handler then, internally, once per instance, a bounded number of pages.

import { CallRecord, callScope } from "../internal/call-scope.js";

type RequestHandler = (request: unknown, extra: unknown) => unknown;

/** Pages of the server's own `tools/list` read at most, following `nextCursor`. */
const MAX_PAGES = 10;

/**
 * A schema nothing passes: the tool's schema could not be read (the list threw, or had more
 * pages than are read), so the error goes in `_meta`, where no client's schema check reaches it.
 */
const UNREADABLE = Object.freeze({ description: "output schema not readable from tools/list" });

export interface OwnListing {
  /** Reads the server's own list, the first time only; never throws. */
  load(extra: unknown): Promise<void>;
  /** What that list says of the tool's output schema (`undefined`: none). */
  known(name: string): unknown;
}

/** The `tools/list` the protocol answers, read from the inside. */
export function ownListing(handlers: Map<string, RequestHandler>): OwnListing {
  const schemas = new Map<string, unknown>();
  let state: "unread" | "complete" | "partial" = "unread";
  let loading: Promise<void> | undefined;

  const read = async (extra: unknown) => {
    const handler = handlers.get("tools/list");
    if (typeof handler !== "function") {
      state = "complete"; // no list: the client was told of no schema
      return;
    }
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const request = { method: "tools/list", params: cursor === undefined ? {} : { cursor } };
      // Its own record: an upstream the list handler calls is not the tool call's upstream.
      const result = await callScope().run(new CallRecord(), async () => handler(request, extra));
      const { tools, nextCursor } = (result ?? {}) as { tools?: unknown; nextCursor?: unknown };
      if (!Array.isArray(tools)) return;
      for (const tool of tools as { name?: unknown; outputSchema?: unknown }[]) {
        if (typeof tool?.name === "string") schemas.set(tool.name, tool.outputSchema);
      }
      if (typeof nextCursor !== "string" || nextCursor === "") {
        state = "complete";
        return;
      }
      if (seen.has(nextCursor)) return; // a cursor that goes round in circles
      seen.add(nextCursor);
      cursor = nextCursor;
    }
  };

  return {
    load(extra) {
      loading ??= read(extra).then(
        () => {
          if (state === "unread") state = "partial";
        },
        () => {
          state = "partial";
        },
      );
      return loading;
    },
    known(name) {
      if (schemas.has(name)) return schemas.get(name);
      // A complete list without the tool: the client cannot have validated against a schema.
      return state === "complete" ? undefined : UNREADABLE;
    },
  };
}
