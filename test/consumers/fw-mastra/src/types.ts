// What typechecks with Mastra's createTool and an unannotated wrapped execute, and what does not.
import { createTool } from "@mastra/core/tools";
import { withUpstreamThrottle } from "mcp-upstream-throttle";
import { z } from "zod";

const input = z.object({ query: z.string() });

// Given the input schema's type, execute's `context` is typed from it: a typo does not compile.
export const typed = createTool<typeof input>({
  id: "typed",
  description: "the input's type given",
  inputSchema: input,
  execute: withUpstreamThrottle(async ({ context }) => {
    const query: string = context.query;
    return { content: [{ type: "text" as const, text: query }] };
  }),
});
export const typo = createTool<typeof input>({
  id: "typo",
  description: "a typo",
  inputSchema: input,
  // @ts-expect-error -- `qurey` is not in the input schema
  execute: withUpstreamThrottle(async ({ context }) => context.qurey),
});

// Without it, createTool infers execute's type as its own type parameter (`TExecute`), which no
// generic wrapper can be typed against (an identity function `<H>(h: H) => H` fails the same way).
export const inferred = createTool({
  id: "inferred",
  description: "no type argument",
  inputSchema: input,
  // @ts-expect-error -- Mastra 0.24: the wrapped execute's arguments are not inferred
  execute: withUpstreamThrottle(async ({ context }) => ({
    content: [{ type: "text" as const, text: `${context}` }],
  })),
});
