import { constants, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";
import type { Diagnostic } from "../../core/index.js";

/** Pipelines are small; anything past this is almost certainly the wrong file. */
export const MAX_PIPELINE_BYTES = 1024 * 1024;

export type SourceResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

function fileProblem(file: string, code: string, message: string, hint?: string): SourceResult {
  const diagnostic: Diagnostic = { file, line: 1, column: 1, length: 1, severity: "error", code, message };
  if (hint) diagnostic.hint = hint;
  return { ok: false, diagnostic };
}

/**
 * Reads a pipeline file as UTF-8 text, refusing what is not one: missing, not a regular file
 * (a directory, FIFO, device or socket, also behind a symlink), over the size cap, binary. The cap
 * holds while reading, so a file that is larger than its size says cannot grow memory; nothing
 * is opened in a way that could block.
 */
export async function readSource(file: string, maxBytes = MAX_PIPELINE_BYTES): Promise<SourceResult> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    return openProblem(file, error);
  }
  const refused = checkKind(file, info, maxBytes);
  if (refused) return refused;
  let handle: FileHandle;
  try {
    // O_NONBLOCK: should the path turn into a FIFO after the check, opening it does not wait for a writer.
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return openProblem(file, error);
  }
  try {
    const again = checkKind(file, await handle.stat(), maxBytes);
    if (again) return again;
    const bytes = await readAtMost(handle, maxBytes + 1);
    if (bytes.length > maxBytes) return tooLarge(file, undefined, maxBytes);
    return decodeSource(file, bytes);
  } catch (error) {
    return openProblem(file, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function checkKind(file: string, info: Stats, maxBytes: number): SourceResult | undefined {
  const kind = info.isFile() ? undefined : describeKind(info);
  if (kind) return fileProblem(file, "not-a-file", `${file} is ${kind}, not a regular file`, "a pipeline is a YAML file; name the file itself");
  if (info.size > maxBytes) return tooLarge(file, info.size, maxBytes);
  return undefined;
}

function describeKind(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

function tooLarge(file: string, size: number | undefined, maxBytes: number): SourceResult {
  const what = size === undefined ? `more than ${formatBytes(maxBytes)}` : formatBytes(size);
  return fileProblem(
    file,
    "file-too-large",
    `file is ${what}; a pipeline file may be at most ${formatBytes(maxBytes)}`,
    "split the pipeline, or move large data (schemas, URL lists) out of it",
  );
}

function openProblem(file: string, error: unknown): SourceResult {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return fileProblem(file, "file-not-found", `no such file: ${file}`);
  return fileProblem(file, "unreadable-file", `cannot read ${file}: ${(error as Error).message}`);
}

/** Reads until end of file or `limit` bytes, whichever comes first. */
async function readAtMost(handle: FileHandle, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Decodes bytes as UTF-8, locating the first NUL byte or invalid sequence if there is one. Bytes
 * over the size cap are refused here too, so text that did not come from a file obeys it as well.
 */
export function decodeSource(file: string, bytes: Uint8Array): SourceResult {
  if (bytes.length > MAX_PIPELINE_BYTES) return tooLarge(file, bytes.length, MAX_PIPELINE_BYTES);
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
