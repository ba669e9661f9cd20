// The scripted model the AI SDK projects run (ai-sdk-6, ai-sdk-7, voltagent): its first step
// calls one tool, its second records the tool's output from its prompt (what the model is given)
// and ends. `MockLanguageModel` is the release's own mock (`MockLanguageModelV3` in ai 6,
// `MockLanguageModelV4` in ai 7), passed in: this file imports no `ai` of its own.

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `name` first and then pushes the tool's output to `seen`. */
export function scriptedModel(MockLanguageModel, name, seen) {
  return new MockLanguageModel({
    doGenerate: async ({ prompt }) => {
      const results = prompt
        .filter((message) => message.role === "tool")
        .flatMap((message) => message.content);
      if (results.length === 0)
        return {
          content: [
            { type: "tool-call", toolCallId: "c1", toolName: name, input: '{"query":"q"}' },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      seen.push(results.at(-1).output);
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
