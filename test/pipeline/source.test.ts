import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeSource, MAX_PIPELINE_BYTES, readSource } from "../../src/pipeline/yaml/source.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-source-"));

describe("readSource", () => {
  it("reads a UTF-8 file", async () => {
    const file = join(dir, "ok.yaml");
    writeFileSync(file, "name: café\n");
    expect(await readSource(file)).toEqual({ ok: true, text: "name: café\n" });
  });

  it("reports a missing file", async () => {
    const result = await readSource(join(dir, "missing.yaml"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ code: "file-not-found", line: 1, column: 1 });
  });

  it("reports a directory", async () => {
    const result = await readSource(dir);
    expect(!result.ok && result.diagnostic.code).toBe("not-a-file");
  });

  it("refuses a 10 MB file (over the size cap) before reading it", async () => {
    const file = join(dir, "huge.yaml");
    writeFileSync(file, `a: "${"x".repeat(10 * 1024 * 1024)}"\n`);
    const result = await readSource(file);
    expect(!result.ok && result.diagnostic.code).toBe("file-too-large");
    expect(!result.ok && result.diagnostic.message).toMatch(/1\.0 MiB/);
  });
});

describe("decodeSource", () => {
  it("locates a NUL byte by line and column", () => {
    const result = decodeSource("f.yaml", Buffer.from("a: 1\nbb: \u0000\n"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ code: "not-text", line: 2, column: 5 });
  });

  it("locates invalid UTF-8 by line and column", () => {
    const bytes = Buffer.concat([Buffer.from("name: ok\nx: "), Buffer.from([0xc3, 0x28]), Buffer.from("\n")]);
    const result = decodeSource("f.yaml", bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic).toMatchObject({ code: "not-text", line: 2, column: 4 });
  });

  it("accepts multi-byte characters and a byte-order mark", () => {
    const result = decodeSource("f.yaml", Buffer.from("\ufeffname: 日本語 🎉\n"));
    expect(result).toEqual({ ok: true, text: "name: 日本語 🎉\n" });
  });
});

describe("decodeSource size cap", () => {
  it("refuses bytes over the cap, as a file would be", () => {
    const result = decodeSource("f.yaml", Buffer.alloc(MAX_PIPELINE_BYTES + 1, 0x61));
    expect(!result.ok && result.diagnostic).toMatchObject({ code: "file-too-large", line: 1, column: 1 });
  });
});
