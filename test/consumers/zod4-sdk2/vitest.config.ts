import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Registers toBeRateLimited for every test file, and lets nock 15 run on Node 20.
    setupFiles: ["./test/setup.ts"],
  },
});
