#!/usr/bin/env node
// `npm run demo`: serves demo/site/ on 127.0.0.1:8787 (--port N or SCRAPELINE_DEMO_PORT to change it;
// 0 for a free port) and runs pipelines/demo.yaml against it on the embedded engine, with its own
// database (data/demo.db, or --db PATH). The port stays the same from run to run, so the pages keep
// their URLs and change tracking compares each with its previous version.
// `npm run demo -- --twice` runs it, changes a book page of the site, runs it again and prints
// `scrapeline changes`. Other arguments go to `scrapeline run`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { redactDatabaseUrl } from "../dist/app/db-path.js";
import { DEFAULT_PORT, EDIT, startSite } from "./demo-site.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const cli = join(root, "dist/cli/main.js");

function parseArgs(argv) {
  const options = { port: process.env.SCRAPELINE_DEMO_PORT || String(DEFAULT_PORT), db: join("data", "demo.db"), twice: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (name === "--port") options.port = value();
    else if (name === "--db") options.db = value();
    else if (arg === "--twice") options.twice = true;
    else options.rest.push(arg);
  }
  if (!/^\d+$/.test(options.port ?? "") || Number(options.port) > 65535) fail(`demo: --port must be a port number (0 for a free port), not ${options.port}`);
  if (!options.db) fail("demo: --db needs a path");
  return options;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

/** Runs the scrapeline CLI with the terminal attached; resolves with its exit code. */
function scrapeline(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGINT" ? 130 : 1)));
  });
}

const options = parseArgs(process.argv.slice(2));
try {
  readFileSync(cli);
} catch {
  fail(`demo: ${cli} is missing; build first with npm run build (npm ci does it)`);
}

let site;
try {
  site = await startSite({ port: Number(options.port) });
} catch (error) {
  fail(error.code === "EADDRINUSE" ? `demo: port ${options.port} is in use; pick another with npm run demo -- --port N (or SCRAPELINE_DEMO_PORT=N)` : `demo: cannot serve the demo site: ${error.message}`);
}
console.error(`demo site at ${site.url}\n`);
process.on("SIGINT", () => {}); // the run handles Ctrl-C; the site stays up until it exits

const run = () => scrapeline(["run", join(root, "pipelines/demo.yaml"), "--allow-private-network", "--db", options.db, "--var", `SCRAPELINE_DEMO_URL=${site.url}`, ...options.rest]);
let code = await run();
if (code === 0 && options.twice) {
  site.edit();
  console.error(`\nChanged the demo site: ${EDIT.description} (${site.url}${EDIT.path}). Running again:\n`);
  code = await run();
  if (code === 0) {
    console.error("\nWhat changed between the two runs (scrapeline changes):\n");
    code = await scrapeline(["changes", "--db", options.db]);
  }
}
await site.close();
if (code === 0) {
  // A PostgreSQL URL is shown without its password (PGPASSWORD or ~/.pgpass supply it).
  const shownDb = redactDatabaseUrl(options.db);
  console.error(`\nThe pages are stored in ${shownDb}. Look at them with:`);
  console.error(`  npx scrapeline runs --db ${shownDb}`);
  console.error(`  npx scrapeline changes --db ${shownDb}             # what changed since the previous run`);
  console.error(`  npx scrapeline export --db ${shownDb} --format markdown --out demo-pages/`);
  console.error(`  npx scrapeline export --db ${shownDb} --step prices --format csv   # the books' data, extracted without a model`);
  if (!options.twice) console.error("Or see change tracking at work: npm run demo -- --twice");
}
process.exitCode = code;
