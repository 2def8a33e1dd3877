import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validatePipelines } from "../../src/app/index.js";
import { loadPipeline } from "../../src/pipeline/index.js";
import { readSource } from "../../src/pipeline/yaml/source.js";

/**
 * Paths named like pipelines that are not regular files. Reading any of them the ordinary way
 * blocks (a FIFO waits for a writer) or never ends (/dev/zero has no end of file); each must be
 * refused at once. A test that hangs fails on its timeout.
 */
const dir = mkdtempSync(join(tmpdir(), "scrapeline-special-"));
const fifo = join(dir, "fifo.yaml");
const zero = join(dir, "zero.yaml");
const folder = join(dir, "folder.yaml");
const socket = join(dir, "socket.yaml");
const good = join(dir, "good.yaml");
const linkToGood = join(dir, "link.yaml");
const PIPELINE = "version: 1\nname: ok\nsteps:\n  - id: a\n    map: { url: https://example.com }\n";

const server = createServer();
beforeAll(async () => {
  execFileSync("mkfifo", [fifo]);
  symlinkSync("/dev/zero", zero);
  mkdirSync(folder);
  writeFileSync(good, PIPELINE);
  symlinkSync(good, linkToGood);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("reading paths that are not regular files", () => {
  it.each([
    [fifo, "a FIFO (named pipe)"],
    [zero, "a character device"],
    [folder, "a directory"],
    [socket, "a socket"],
  ])("refuses %s as %s", async (path, kind) => {
    const result = await readSource(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ file: path, line: 1, column: 1, severity: "error", code: "not-a-file", message: `${path} is ${kind}, not a regular file` });
  });

  it("reads a pipeline through a symlink to a regular file", async () => {
    expect(await readSource(linkToGood)).toEqual({ ok: true, text: PIPELINE });
  });

  it("enforces the size cap while reading, not from the size the file reports", async () => {
    // Files under /proc report a size of 0 and yet have contents.
    const status = "/proc/self/status";
    if (!existsSync(status)) return;
    const result = await readSource(status, 16);
    expect(!result.ok && result.diagnostic).toMatchObject({ code: "file-too-large", message: "file is more than 16 bytes; a pipeline file may be at most 16 bytes" });
  });

  it("gives a diagnostic through the loader for a FIFO and a symlink to /dev/zero", async () => {
    for (const path of [fifo, zero]) {
      const result = await loadPipeline(path);
      expect(result.pipeline).toBeUndefined();
      expect(result.diagnostics.map((d) => d.code)).toEqual(["not-a-file"]);
    }
  });

  it("validates a folder holding such entries: each refused, the rest checked", async () => {
    const report = await validatePipelines([dir]);
    expect(report.valid).toBe(false);
    expect(report.diagnostics.map((d) => [d.file, d.code]).sort()).toEqual(
      [
        [fifo, "not-a-file"],
        [socket, "not-a-file"],
        [zero, "not-a-file"],
      ].sort(),
    );
    expect(report.files.map((f) => f.file)).toEqual(expect.arrayContaining([good, linkToGood]));
  });

  it("the built CLI exits 2 with a diagnostic for each, without hanging", () => {
    const cli = "dist/cli/main.js";
    expect(existsSync(cli), "run `npm run build` first").toBe(true);
    // A directory named on the command line is searched for pipelines instead (see above).
    for (const path of [fifo, zero]) {
      // The timeout only guards against a hang; a run that reaches it fails below.
      const r = spawnSync(process.execPath, [cli, "validate", path, "--format", "short"], { encoding: "utf8", timeout: 20_000 });
      expect(r.error, `validate ${path}`).toBeUndefined();
      expect(r.status).toBe(2);
      expect(r.stdout).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:1: error\\[not-a-file\\]: .* not a regular file`));
      expect(r.stderr).not.toMatch(/at .*\.js|Error:/);
    }
  });
});
