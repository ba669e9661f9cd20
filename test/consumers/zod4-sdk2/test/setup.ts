// The vitest setup file: registers toBeRateLimited and, being part of the TypeScript program,
// types it on expect(...) in every test.
import "mcp-upstream-throttle/testing/vitest";

// nock 15 on Node 20: the line that nockRateLimited's documentation gives, pasted as is.
if (!("withResolvers" in Promise)) Object.assign(Promise, { withResolvers: () => { const handlers = {}; const promise = new Promise((resolve, reject) => Object.assign(handlers, { resolve, reject })); return { promise, ...handlers }; } });
