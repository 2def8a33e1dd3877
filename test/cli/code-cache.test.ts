import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCacheFile, requireBundled, runCommonJs } from "../../src/cli/code-cache.js";

/**
 * The build saves V8's code cache of the file a plain `validate` loads, for the Node that built it
 * (scripts/gen-code-cache.mjs); src/cli/code-cache.ts uses it there.
 */
const QUICK = resolve("dist/cli/quick-validate.cjs");

describe("the code cache of the quick validate", () => {
  it.skipIf(!existsSync(QUICK))("is saved by the build for this Node, which accepts it", () => {
    expect(existsSync(codeCacheFile(QUICK)), "run npm run build").toBe(true);
    const { exports, script } = runCommonJs(QUICK, readFileSync(codeCacheFile(QUICK)));
    expect(script.cachedDataRejected).toBe(false);
    expect(typeof (exports as { validateCommand?: unknown }).validateCommand).toBe("function");
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
    writeFileSync(codeCacheFile(cached), "not a code cache");
    expect(requireBundled(cached)).toEqual({ answer: 2, file: cached, dir, sep: "/" });
    const rejected = write("rejected.cjs", 3);
    expect(runCommonJs(rejected, Buffer.from("not a code cache")).script.cachedDataRejected).toBe(true);
  });
});
