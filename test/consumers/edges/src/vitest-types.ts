// The vitest entry's augmentation, typechecked against vitest 3, 4 and 5 (tsconfig.vitestN.json
// points the name "vitest" at each), with skipLibCheck off so the package's own declarations
// are checked too.
import "mcp-upstream-throttle/testing/vitest";
import { rateLimitedResult } from "mcp-upstream-throttle";
import { expect } from "vitest";

const result = rateLimitedResult({ limit: "search", retryAfterSeconds: 1 });
expect(result).toBeRateLimited({ limit: "search", retryAfterSeconds: 1 });
expect(result).not.toBeRateLimited({ limit: "other" });
// @ts-expect-error the expectation is typed
expect(result).toBeRateLimited({ limit: 5 });
