import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { plainValidateArgs } from "../../src/cli/quick-commands.js";
import { runChild } from "./child.js";

/**
 * `--help`, `--version` and a plain `validate` are answered without the command-line parser
 * (src/cli/quick-commands.ts). They must answer exactly as the parser does, and must really not
 * load it (nor the store or ajv's compiler): both checked on the built CLI.
 */
const MAIN = resolve("dist/cli/main.js");
const built = existsSync(MAIN) && existsSync(resolve("dist/cli/bundle-meta.json"));

/** Runs node with `args`, stdout and stderr collected (stdout a pipe, as the build renders the help). */
function node(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  return new Promise((done) => child.once("close", (code) => done({ code, stdout, stderr })));
}

/** The parser's own answer: the built command line's runCli, called without the quick commands in front of it. */
function throughParser(args: string[]) {
  const script = `const { runCli } = await import(${JSON.stringify(resolve("dist/cli/cli.js"))}); process.exitCode = await runCli(${JSON.stringify(args)});`;
  return node(["--input-type=module", "-e", script]);
}

/** The modules the built CLI loaded for `args` (test/cli/record-loads.mjs), relative to the repository. */
async function loadedBy(args: string[]): Promise<string[]> {
  const out = join(mkdtempSync(join(tmpdir(), "scrapeline-loads-")), "loads.txt");
  const run = await node(["--import", resolve("test/cli/record-loads.mjs"), MAIN, ...args], { RECORD_LOADS_TO: out });
  expect(run.code, run.stderr).toBe(0);
  const root = `${resolve(".")}/`;
  return [...new Set(readFileSync(out, "utf8").split("\n").filter(Boolean).map((line) => line.replace(/^file:\/\//, "").replace(root, "")))];
}

/** The files of dist/cli/ that hold the command-line parser (yargs) or its command table. */
function parserChunks(): string[] {
  const meta = JSON.parse(readFileSync("dist/cli/bundle-meta.json", "utf8")) as { outputs: Record<string, { inputs: string[] }> };
  const chunks = Object.entries(meta.outputs).filter(([, output]) => output.inputs.some((input) => input.includes("node_modules/yargs") || input === "dist/cli/cli.js"));
  return chunks.map(([file]) => `dist/cli/${file}`);
}

describe("the command lines answered without the parser", () => {
  it("reads validate's paths and options when they are written plainly", () => {
    expect(plainValidateArgs(["a.yaml"])).toEqual({ paths: ["a.yaml"], strict: false, "allow-private-network": false });
    expect(plainValidateArgs(["--strict", "dir/", "b.yml", "--format", "json", "--allow-private-network"])).toEqual({ paths: ["dir/", "b.yml"], format: "json", strict: true, "allow-private-network": true });
  });

  it("leaves every other way of writing them to the parser", () => {
    for (const rest of [[], ["--strict"], ["a.yaml", "--format=json"], ["a.yaml", "--format", "xml"], ["a.yaml", "--format"], ["a.yaml", "--strict", "--strict"], ["a.yaml", "--no-strict"], ["--", "a.yaml"], ["-"], ["a.yaml", "-x"], ["12"], ["1e3"], ["0x1f"], [""], ["a.yaml", "--help"]]) {
      expect(plainValidateArgs(rest), JSON.stringify(rest)).toBeUndefined();
    }
  });

  it.skipIf(!built)("answer --help, -h, --version and validate exactly as the parser does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-quick-"));
    const cases = [["--help"], ["-h"], ["--version"], ["validate", "pipelines/demo.yaml"], ["validate", "pipelines", "--format", "json", "--strict"], ["validate", "--allow-private-network", "pipelines/demo.yaml"], ["validate", join(dir, "missing.yaml")], ["validate", dir]];
    for (const args of cases) {
      const [quick, parser] = await Promise.all([runChild(args), throughParser(args)]);
      expect({ code: quick.code, stdout: quick.stdout, stderr: quick.stderr }, args.join(" ")).toEqual(parser);
    }
    expect((await runChild(["--help"])).stdout).toContain("Commands:");
  });

  it.skipIf(!built)("load neither the parser, the store nor ajv's compiler", async () => {
    const parser = parserChunks();
    expect(parser.length).toBeGreaterThan(0);
    for (const args of [["--help"], ["--version"], ["validate", "pipelines/demo.yaml"]]) {
      const loaded = await loadedBy(args);
      expect(loaded, args.join(" ")).toContain("dist/cli/main.js");
      for (const file of loaded) {
        expect(parser, `${args.join(" ")} loads ${file}`).not.toContain(file);
        expect(file, args.join(" ")).not.toMatch(/better-sqlite3|node_modules\/ajv\/dist\/(core|ajv|compile\/)/);
      }
    }
    // validate loads no chunk beyond those of main.js: its modules are in one file of their own
    // (dist/cli/quick-validate.cjs, which the recorder sees only where require loads it).
    const meta = JSON.parse(readFileSync("dist/cli/bundle-meta.json", "utf8")) as { outputs: Record<string, { imports: string[] }> };
    const startFiles = ["main.js", ...meta.outputs["main.js"]!.imports].map((file) => `dist/cli/${file}`);
    const validateFiles = (await loadedBy(["validate", "pipelines/demo.yaml"])).filter((file) => file.startsWith("dist/cli/") && file.endsWith(".js"));
    expect(validateFiles.filter((file) => !startFiles.includes(file))).toEqual([]);
    // The recorder sees the parser where it is loaded.
    expect((await loadedBy(["validate", "pipelines/demo.yaml", "--format=short"])).some((file) => parser.includes(file))).toBe(true);
  });
});
