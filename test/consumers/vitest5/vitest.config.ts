import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Registers toBeRateLimited for every test file (vitest 5 runs on Node 22 and 24 only).
    setupFiles: ["./test/setup.ts"],
  },
});
