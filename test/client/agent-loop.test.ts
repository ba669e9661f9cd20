// The example host (examples/host/agent-loop.ts) against the real search server and upstream.

import { describe, expect, it } from "vitest";
import { runStandalone } from "../../examples/host/agent-loop.js";

describe("the example agent host", () => {
  it("absorbs the short throttle, hands the long one to the model, and answers the retry from its cooldown", async () => {
    const lines = await runStandalone();
    const waits = lines.flatMap((line, index) =>
      line.startsWith("  host: semantic_search_rate_limit throttled") ? [index] : [],
    );
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) {
      expect(lines[wait + 1]).toMatch(/^model ← semantic_search: [\w-]+ — first result/);
    }
    for (const line of lines.filter((text) => text.startsWith("model ← semantic_search"))) {
      expect(line).not.toContain("Rate limited");
    }
    expect(lines).toContain(
      "model ← search (isError): Rate limited by search_rate_limit. Retry after 60 seconds.",
    );
    expect(
      lines.some((line) =>
        line.startsWith("  host: answered from the cooldown, no request sent (search_rate_limit"),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(/^model: search_rate_limit is rate limited for \d+ s/);
  });
});
