import { readFile, stat } from "node:fs/promises";
import type { Diagnostic } from "../core/index.js";

/** Pipelines are small; anything past this is almost certainly the wrong file. */
export const MAX_PIPELINE_BYTES = 1024 * 1024;

export type SourceResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

function fileProblem(file: string, code: string, message: string, hint?: string): SourceResult {
  const diagnostic: Diagnostic = { file, line: 1, column: 1, length: 1, severity: "error", code, message };
  if (hint) diagnostic.hint = hint;
  return { ok: false, diagnostic };
}

/** Reads a pipeline file as UTF-8 text, refusing what is not one (missing, huge, binary). */
export async function readSource(file: string): Promise<SourceResult> {
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return fileProblem(file, "not-a-file", `${file} is a directory`);
    size = info.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return fileProblem(file, "file-not-found", `no such file: ${file}`);
    return fileProblem(file, "unreadable-file", `cannot read ${file}: ${(error as Error).message}`);
  }
  if (size > MAX_PIPELINE_BYTES) {
    return fileProblem(
      file,
      "file-too-large",
      `file is ${formatBytes(size)}; a pipeline file may be at most ${formatBytes(MAX_PIPELINE_BYTES)}`,
      "split the pipeline, or move large data (schemas, URL lists) out of it",
    );
  }
  const bytes = await readFile(file);
  return decodeSource(file, bytes);
}

/** Decodes bytes as UTF-8, locating the first NUL byte or invalid sequence if there is one. */
export function decodeSource(file: string, bytes: Uint8Array): SourceResult {
  const nul = bytes.indexOf(0);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return binaryProblem(file, bytes, nul >= 0 && nul < at ? nul : at, "is not valid UTF-8 text");
  }
  if (nul >= 0) return binaryProblem(file, bytes, nul, "contains a NUL byte: it looks like a binary file");
  return { ok: true, text };
}

function binaryProblem(file: string, bytes: Uint8Array, offset: number, what: string): SourceResult {
  const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
  const lines = before.split("\n");
  const diagnostic: Diagnostic = {
    file,
    line: lines.length,
    column: (lines[lines.length - 1]?.length ?? 0) + 1,
    length: 1,
    severity: "error",
    code: "not-text",
    message: `file ${what} (byte ${offset})`,
    hint: "a pipeline is a YAML text file encoded as UTF-8",
  };
  return { ok: false, diagnostic };
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const width = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    if (width === 0 || i + width > bytes.length) return i;
    for (let k = 1; k < width; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += width;
  }
  return bytes.length;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
