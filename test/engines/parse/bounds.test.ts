import { describe, expect, test } from "vitest";
import { isScrapelineError } from "../../../src/core/index.js";
import { DEFAULT_PARSE_LIMITS, parseInThread, runningConversions, type ParseLimits } from "../../../src/engines/local/parse/index.js";
import { deepDocx, longStringXlsx, paragraphsDocx } from "./bombs.js";
import { parseOptions } from "./options.js";

/** Converts in a thread as the engine does; the failure's kind and message. */
async function failure(name: string, bytes: Uint8Array, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<{ kind: string; message: string }> {
  try {
    await parseInThread({ name, bytes, url: `file:///docs/${name}` }, parseOptions(), undefined, limits);
  } catch (error) {
    if (!isScrapelineError(error)) throw error;
    return { kind: error.kind, message: error.message };
  }
  throw new Error(`${name} parsed, but should have failed`);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("a file's conversion is bounded whatever the file", () => {
  test("a DOCX whose document.xml inflates to 80 MB is refused at the limit of one part, before mammoth reads it", async () => {
    const bomb = paragraphsDocx(80);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await failure("bomb.docx", bomb)).toEqual({ kind: "too-large", message: "bomb.docx: its part word/document.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb" });
  });

  test("an XLSX holding one 80 MB shared string is refused at the part limit; one of 2 MB at the limit of one string", async () => {
    expect(await failure("bomb.xlsx", longStringXlsx(80))).toEqual({ kind: "too-large", message: "bomb.xlsx: its part xl/sharedStrings.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb" });
    expect(await failure("cell.xlsx", longStringXlsx(2))).toEqual({ kind: "too-large", message: "cell.xlsx: xl/sharedStrings.xml holds a text longer than 1048576 characters (the limit of one string or cell): refused" });
  });

  test("elements nested 100,000 deep are refused at the depth limit (no converter recursion overflows)", async () => {
    expect(await failure("deep.docx", deepDocx(100_000))).toEqual({ kind: "bad-content", message: "deep.docx: word/document.xml nests elements more than 256 deep (the limit of a parsed file): refused" });
  });

  test("a file that needs more heap than the limit ends its own thread, not the process; the next file converts", async () => {
    // 2 MB of paragraphs passes every cap, but mammoth needs a few hundred MB for it: far over 64.
    const error = await failure("dense.docx", paragraphsDocx(2), { ...DEFAULT_PARSE_LIMITS, maxHeapMb: 64 });
    expect(error).toEqual({ kind: "too-large", message: "dense.docx needs more than 64 MB of memory to convert (the limit of one parsed file): refused" });
    const next = await parseInThread({ name: "a.csv", bytes: new TextEncoder().encode("a,b\n1,2\n"), url: "file:///docs/a.csv" }, parseOptions(), undefined, { ...DEFAULT_PARSE_LIMITS, maxHeapMb: 64 });
    expect(next.markdown).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |\n");
  });

  test("a conversion whose text passes the limit of a parsed document is refused before it is handed back", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `row ${i},${"word ".repeat(20)}`).join("\n");
    expect(await failure("wide.csv", new TextEncoder().encode(`a,b\n${rows}\n`), { ...DEFAULT_PARSE_LIMITS, maxOutputChars: 10_000 })).toEqual({ kind: "too-large", message: "wide.csv converts to more than 10000 characters of text (the limit of a parsed document): refused" });
  });

  test("an abort while the file converts ends its thread: the conversion fails as cancelled", async () => {
    const stop = new AbortController();
    const parsing = parseInThread({ name: "dense.docx", bytes: paragraphsDocx(2), url: "file:///docs/dense.docx" }, parseOptions(), stop.signal);
    await until(() => runningConversions() > 0);
    stop.abort();
    await expect(parsing).rejects.toMatchObject({ kind: "cancelled" });
  });
});
