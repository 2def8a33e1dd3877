#!/usr/bin/env node
// Runs the Python SDK's own end-to-end tests (firecrawl/__tests__/e2e/v2 in the SDK's folder)
// against a `scrapeline serve` this script starts on 127.0.0.1 over a fresh database. Opt-in,
// not part of `npm test`: the SDK's tests scrape public sites (docs.firecrawl.dev, firecrawl.dev),
// so without internet access the ones that fetch a page fail on the fetch, not on the API.
//
//   npm run build && node scripts/py-sdk-e2e.mjs [pytest arguments, e.g. -k usage]
//
// The venv is scripts/py-sdk-env.mjs's. The SDK's folder is only read: its tests are copied.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepare } from "./py-sdk-env.mjs";

const env = prepare();
if (env.skip) {
  process.stderr.write(`${env.skip}\n`);
  process.exit(2);
}
const repo = resolve(new URL("..", import.meta.url).pathname);
const { createKey } = await import(join(repo, "dist", "app", "index.js"));
const { startServer } = await import(join(repo, "dist", "server", "index.js"));

const dir = mkdtempSync(join(tmpdir(), "scrapeline-py-e2e-"));
const db = join(dir, "serve.db");
const { key } = createKey(db, "e2e", { planTokens: 100_000_000 });
const server = await startServer({ db, port: 0, env: process.env });
const tests = join(dir, "e2e");
cpSync(join(env.sdk, "firecrawl", "__tests__", "e2e"), tests, { recursive: true });
process.stderr.write(`serve at ${server.url}; running the SDK's e2e tests from ${tests}\n`);

const child = spawn(env.python, ["-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", join(tests, "v2"), ...process.argv.slice(2)], {
  cwd: dir,
  stdio: "inherit",
  env: { ...process.env, API_KEY: key, API_URL: server.url, TEST_URL: server.url, IDMUX_URL: "", PYTHONDONTWRITEBYTECODE: "1" },
});
const code = await new Promise((done) => child.once("close", done));
await server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(code ?? 1);
