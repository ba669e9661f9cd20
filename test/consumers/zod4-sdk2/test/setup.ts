// The vitest setup file: registers toBeRateLimited and, being part of the TypeScript program,
// types it on expect(...) in every test.
import "mcp-upstream-throttle/testing/vitest";

// nock 15 on Node 20: the line that nockRateLimited's documentation gives, pasted as is.
Promise.withResolvers ??= () => { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };
