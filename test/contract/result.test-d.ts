import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult as CallToolResultV2 } from "@modelcontextprotocol/server";
import { describe, expectTypeOf, it } from "vitest";
import type { RateLimitedContentBlock, RateLimitedTextBlock } from "../../src/contract/result.js";
import { type RateLimitedToolResult, rateLimitedResult } from "../../src/index.js";

describe("RateLimitedToolResult.content", () => {
  it("keeps the text block first", () => {
    const result = rateLimitedResult({ limit: "search" });
    expectTypeOf(result.content[0]).toEqualTypeOf<RateLimitedTextBlock>();
    expectTypeOf(result.content[0].text).toBeString();
  });

  it("takes the tool's own blocks after it", () => {
    const result = rateLimitedResult({ limit: "search" });
    result.content.push(
      { type: "text", text: "Set FIRECRAWL_API_KEY to continue." },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource", resource: { uri: "file:///help.md", text: "# Help" } },
    );
    expectTypeOf(result.content[1]).toEqualTypeOf<RateLimitedContentBlock | undefined>();
    const withBlocks: RateLimitedToolResult = {
      content: [
        { type: "text", text: "Rate limited by search. Wait before retrying." },
        { type: "resource_link", uri: "https://example.com/pricing", name: "pricing" },
      ],
      isError: true,
    };
    expectTypeOf(withBlocks).toExtend<CallToolResult>();
  });

  it("never lets the first block be anything but text", () => {
    const result: RateLimitedToolResult = {
      // @ts-expect-error -- the first block is the sentence, a text block
      content: [{ type: "image", data: "", mimeType: "image/png" }],
      isError: true,
    };
    expectTypeOf(result).toExtend<CallToolResult>();
  });

  it("is a CallToolResult of the 1.x SDK and of the 2.x packages", () => {
    expectTypeOf<RateLimitedToolResult>().toExtend<CallToolResult>();
    expectTypeOf<RateLimitedToolResult>().toExtend<CallToolResultV2>();
  });
});
