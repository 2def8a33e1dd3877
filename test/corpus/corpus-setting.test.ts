import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sharedCorpus } from "../helpers/corpus.js";

describe("SCRAPELINE_CORPUS", () => {
  it("turns the shared corpus tests off when unset or empty", () => {
    expect(sharedCorpus({})).toBeUndefined();
    expect(sharedCorpus({ SCRAPELINE_CORPUS: "" })).toBeUndefined();
  });

  it("names a folder with a main-content corpus", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    mkdirSync(join(dir, "main-content"));
    expect(sharedCorpus({ SCRAPELINE_CORPUS: dir })).toBe(dir);
  });

  it("is an error when set to a folder without the corpus, so the tests asked for cannot be skipped", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    expect(() => sharedCorpus({ SCRAPELINE_CORPUS: join(dir, "absent") })).toThrow(/SCRAPELINE_CORPUS is set to .*absent.*does not exist/);
    expect(() => sharedCorpus({ SCRAPELINE_CORPUS: dir })).toThrow(/main-content does not exist/);
  });
});
