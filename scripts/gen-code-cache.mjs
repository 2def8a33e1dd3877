#!/usr/bin/env node
// Part of `npm run build`, after the bundle: saves V8's code cache for dist/cli/quick-validate.cjs,
// the file a plain `validate` loads, for the Node running the build, after validating the example
// pipelines with it, so that the functions that ran are in it, not only what is compiled as the
// file loads (what Node's own compile cache keeps). src/cli/code-cache.ts uses it on that Node, where V8
// accepts it. Caches of earlier builds are removed.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { CODE_CACHE_SUFFIX, codeCacheFile, runCommonJs } from "../dist/cli/code-cache.js";

const file = fileURLToPath(new URL("../dist/cli/quick-validate.cjs", import.meta.url));
const dir = new URL("../dist/cli/", import.meta.url);
for (const name of readdirSync(dir)) {
  if (name.startsWith(`${basename(file)}.`) && name.endsWith(CODE_CACHE_SUFFIX)) rmSync(new URL(name, dir));
}
const { exports, script } = runCommonJs(file);
const io = { stdout: () => {}, stderr: () => {}, isTTY: false, color: false };
const pipelines = fileURLToPath(new URL("../pipelines/", import.meta.url));
let code;
await exports.validateCommand(io, (exit) => void (code = exit)).handler({ paths: [pipelines], strict: false, "allow-private-network": false });
if (code !== 0) {
  console.error(`gen-code-cache: validate of ${pipelines} with dist/cli/quick-validate.cjs exited ${code}`);
  process.exit(1);
}
writeFileSync(codeCacheFile(file), script.createCachedData());
