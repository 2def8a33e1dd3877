import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_CACHE_SUFFIX, requireBundled, runCommonJs } from "../../src/cli/code-cache.js";

/**
 * On a Node without a compile cache of its own (before 22.1) the build saves V8's code cache for
 * the file a plain `validate` loads (scripts/gen-code-cache.mjs); src/cli/code-cache.ts uses it.
 */
const QUICK = resolve("dist/cli/quick-validate.cjs");
const ownCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe("the code cache of the quick validate", () => {
  it.skipIf(ownCompileCache || !existsSync(QUICK))("is saved by the build and accepted by the Node it was made with", () => {
    expect(existsSync(`${QUICK}${CODE_CACHE_SUFFIX}`), "run npm run build").toBe(true);
    const { exports, script } = runCommonJs(QUICK, readFileSync(`${QUICK}${CODE_CACHE_SUFFIX}`));
    expect(script.cachedDataRejected).toBe(false);
    expect(typeof (exports as { validateCommand?: unknown }).validateCommand).toBe("function");
  });

  it("is not saved where Node keeps compiled code itself", () => {
    if (ownCompileCache && existsSync(QUICK)) expect(existsSync(`${QUICK}${CODE_CACHE_SUFFIX}`)).toBe(false);
  });

  it("loads a file as require does, with a cache V8 rejects or without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-code-cache-"));
    // Each source its own (V8 reuses what it compiled for a source it has seen in this process).
    const write = (name: string, answer: number) => {
      const file = join(dir, name);
      writeFileSync(file, `exports.answer = ${answer}; exports.file = __filename; exports.dir = __dirname; exports.sep = require("node:path").sep;\n`);
      return file;
    };
    const plain = write("plain.cjs", 1);
    expect(requireBundled(plain)).toEqual({ answer: 1, file: plain, dir, sep: "/" });
    const cached = write("cached.cjs", 2);
    writeFileSync(`${cached}${CODE_CACHE_SUFFIX}`, "not a code cache");
    expect(requireBundled(cached)).toEqual({ answer: 2, file: cached, dir, sep: "/" });
    const rejected = write("rejected.cjs", 3);
    expect(runCommonJs(rejected, Buffer.from("not a code cache")).script.cachedDataRejected).toBe(true);
  });
});
