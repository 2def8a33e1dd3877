import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Two test files at once even on two cores (vitest's default there is one): most of a file's time
    // is spent waiting on the CLIs, servers and Chromium it starts, so a second file fills it
    // (test/cli and test/watch: 595 s one at a time, 322 s two at a time, at load 17).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Timeouts catch hangs only: tests wait for events, never for the clock, and a machine under
    // load (Chromium starting in 10 s rather than 1) must not fail them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One Chromium that the suite's engines, CLIs and servers share (test/setup/browser-server.ts),
    // and one PostgreSQL server on which PostgreSQL tests make their own databases.
    globalSetup: ["test/setup/browser-server.ts", "test/setup/postgres-server.ts"],
    // Worker threads the code starts (the store's writer) load its TypeScript through Node.
    execArgv: ["--import", fileURLToPath(new URL("./test/setup/register-typescript.mjs", import.meta.url))],
  },
});
