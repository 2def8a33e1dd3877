#!/usr/bin/env node
// Part of `npm run build`, after the bundle: saves `scrapeline --help` as the built CLI's parser
// renders it (stdout not a terminal, so at its full width) to dist/cli/help.txt, which the CLI
// prints for `--help` instead of loading the parser (src/cli/quick-commands.ts).
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const target = new URL("../dist/cli/help.txt", import.meta.url);
// Without the file the CLI renders the help itself: that rendering is what is saved.
rmSync(target, { force: true });
const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const rendered = spawnSync(process.execPath, [main, "--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
if (rendered.status !== 0 || rendered.stderr !== "" || !rendered.stdout.includes("Commands:")) {
  console.error(`gen-help: scrapeline --help exited ${rendered.status}: ${rendered.stderr}${rendered.stdout}`);
  process.exit(1);
}
writeFileSync(target, rendered.stdout);
