#!/usr/bin/env node
// Part of `npm run build`, after the bundle: on a Node without a compile cache of its own (before
// 22.1), saves V8's code cache for dist/cli/quick-validate.cjs, the file a plain `validate` loads,
// after validating the example pipelines with it (so the functions that run are in the cache, not
// only the file's top level). src/cli/code-cache.ts uses it where V8 accepts it. On a newer Node
// there is nothing to save (Node keeps compiled code itself), and an older cache is removed.
import module from "node:module";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CODE_CACHE_SUFFIX, runCommonJs } from "../dist/cli/code-cache.js";

const file = fileURLToPath(new URL("../dist/cli/quick-validate.cjs", import.meta.url));
const cache = `${file}${CODE_CACHE_SUFFIX}`;
rmSync(cache, { force: true });
if (typeof module.enableCompileCache !== "function") {
  const { exports, script } = runCommonJs(file);
  const io = { stdout: () => {}, stderr: () => {}, isTTY: false, color: false };
  const pipelines = fileURLToPath(new URL("../pipelines/", import.meta.url));
  let code;
  await exports.validateCommand(io, (exit) => void (code = exit)).handler({ paths: [pipelines], strict: false, "allow-private-network": false });
  if (code !== 0) {
    console.error(`gen-code-cache: validate of ${pipelines} with dist/cli/quick-validate.cjs exited ${code}`);
    process.exit(1);
  }
  writeFileSync(cache, script.createCachedData());
}
