import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites share this machine's two cores with the speech workers.
    fileParallelism: true,
    maxWorkers: 2,
    minWorkers: 1,
  },
});
