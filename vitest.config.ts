import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    // Worker threads the code starts (the store's writer) load its TypeScript through Node.
    execArgv: ["--import", fileURLToPath(new URL("./test/setup/register-typescript.mjs", import.meta.url))],
  },
});
