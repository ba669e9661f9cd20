// The vitest setup file: registers toBeRateLimited and, being part of the TypeScript program,
// types it on expect(...) in every test.
import "mcp-upstream-throttle/testing/vitest";

