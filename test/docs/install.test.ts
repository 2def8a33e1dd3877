// README's way to use scrapeline outside the clone: `npm install -g` of the folder, here under a
// prefix of the test's own, run from another folder. Offline: a folder is linked, nothing is fetched.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("installing the clone", () => {
  it("npm install -g --prefix DIR <clone> gives a scrapeline that runs from any folder, without the registry", () => {
    const prefix = mkdtempSync(join(tmpdir(), "scrapeline-prefix-"));
    const elsewhere = mkdtempSync(join(tmpdir(), "scrapeline-elsewhere-"));
    // npm itself sits beside the node that runs the tests; --offline makes any fetch an error.
    const npm = join(dirname(process.execPath), "npm");
    const installed = spawnSync(existsSync(npm) ? npm : "npm", ["install", "-g", "--prefix", prefix, ROOT, "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: elsewhere, encoding: "utf8" });
    expect(installed.status, installed.stderr).toBe(0);

    const bin = join(prefix, "bin", "scrapeline");
    expect(realpathSync(bin)).toBe(join(realpathSync(ROOT), "dist", "cli", "main.js"));
    const help = spawnSync(bin, ["--help"], { cwd: elsewhere, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("scrapeline validate <paths..>");
    // A command that works in the folder it is run from.
    const schema = spawnSync(bin, ["schema"], { cwd: elsewhere, encoding: "utf8" });
    expect(schema.status, schema.stderr).toBe(0);
    expect(existsSync(schema.stdout.trim())).toBe(true);
  });
});
