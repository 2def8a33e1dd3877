/**
 * A fixture's bodies, packed (format 2): `bodies/<h>.pack` holds every body whose hash (the sha256
 * of its content) begins with the hex digit `h`, sorted by hash, each once, as a line
 * `<sha256> <length>` (`<sha256> <length> br` for a body over 4 KB, stored brotli-compressed)
 * followed by the stored bytes and a newline. A recording appends its bodies to `bodies/journal.pack` in that
 * same shape as they come, and sorts them into the shards when it ends, so two recordings of the
 * same answers write the same files.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { ScrapelineError } from "../../core/index.js";

/** The pack a recording appends to until it ends. */
export const JOURNAL_PACK = "journal.pack";
/**
 * Bodies over this many bytes are stored compressed: git then stores a pack that changed as a
 * small delta of its last version, which it did not find between packs of plain text (bench/README.md).
 */
export const COMPRESS_OVER_BYTES = 4096;
/**
 * Brotli at quality 1 with a 256 KB window: on the replay benchmark's pages 0.13 s for 39 MB
 * against gzip's fastest level 0.23 s, and 0.3 % smaller.
 */
const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18 };
/** The longest header: 64 hex digits, a space, a length, " br", a newline. */
const HEADER_MAX = 64 + 1 + 16 + 3 + 1;
const HEADER = /^([0-9a-f]{64}) (\d{1,15})( br)?\n/;

/** Where a body lies in a pack: its stored bytes start at `offset` and are `length` long, compressed or not. */
export interface PackedBody {
  offset: number;
  length: number;
  compressed: boolean;
}

/** A body as a pack stores it: its header line, then its bytes (compressed when large) and a newline. */
export function packRecord(hash: string, data: Uint8Array): { header: Buffer; stored: Uint8Array; compressed: boolean } {
  const compressed = data.byteLength > COMPRESS_OVER_BYTES;
  const stored = compressed ? brotliCompressSync(data, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength } }) : data;
  return { header: packHeader(hash, stored.byteLength, compressed), stored, compressed };
}

function packHeader(hash: string, length: number, compressed: boolean): Buffer {
  return Buffer.from(`${hash} ${length}${compressed ? " br" : ""}\n`, "latin1");
}

/** The shard a body goes to: its hash's first hex digit. */
export function shardOf(hash: string): string {
  return `${hash[0]}.pack`;
}

/**
 * Reads the bodies of a fixture's packs: the headers are read once, on the first body asked, and
 * each body then costs one read. A journal pack's torn last body (a recording killed mid-write) is
 * left out; any other damage is an error naming the pack and the byte.
 */
export class PackReader {
  private bodies: Map<string, PackedBody & { fd: number }> | undefined;
  private readonly fds: number[] = [];

  constructor(private readonly dir: string) {}

  /** The body of that hash, or undefined when no pack holds it. */
  read(hash: string): Buffer | undefined {
    const body = this.scanned().get(hash);
    if (!body) return undefined;
    try {
      const data = readStored(body.fd, body);
      return body.compressed ? brotliDecompressSync(data) : data;
    } catch (cause) {
      throw new ScrapelineError("invalid-input", `the fixture ${this.dir}: the body ${hash} cannot be read (${(cause as Error).message}): record it again`, { cause });
    }
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
    this.bodies = undefined;
  }

  private scanned(): Map<string, PackedBody & { fd: number }> {
    if (this.bodies) return this.bodies;
    const bodies = new Map<string, PackedBody & { fd: number }>();
    const folder = join(this.dir, "bodies");
    const names = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".pack")).sort() : [];
    // The journal's last, so a finished shard is read where both hold a body.
    names.sort((a, b) => Number(a === JOURNAL_PACK) - Number(b === JOURNAL_PACK));
    for (const name of names) {
      const fd = openSync(join(folder, name), "r");
      this.fds.push(fd);
      for (const [hash, body] of scanPack(fd, join("bodies", name), name === JOURNAL_PACK, this.dir)) if (!bodies.has(hash)) bodies.set(hash, { ...body, fd });
    }
    return (this.bodies = bodies);
  }
}

/** The bodies of one pack, by hash. A torn end is an error unless `tornEndAllowed` (the journal of a killed recording). */
export function scanPack(fd: number, name: string, tornEndAllowed: boolean, dir: string): Map<string, PackedBody> {
  const size = fstatSync(fd).size;
  const bodies = new Map<string, PackedBody>();
  const head = Buffer.alloc(HEADER_MAX);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, head, 0, HEADER_MAX, at);
    const match = HEADER.exec(head.toString("latin1", 0, n));
    const length = match ? Number(match[2]) : 0;
    const end = at + (match ? match[0].length : 0) + length;
    if (!match || end >= size || !endsWithNewline(fd, end)) {
      if (tornEndAllowed) break;
      throw new ScrapelineError("invalid-input", `${join(dir, name)}: byte ${at}: not a body of a fixture pack ("<sha256> <length>" then the body and a newline): record it again`);
    }
    bodies.set(match[1]!, { offset: at + match[0].length, length, compressed: match[3] !== undefined });
    at = end + 1;
  }
  return bodies;
}

/** A body's stored bytes (compressed or not). */
function readStored(fd: number, body: PackedBody): Buffer {
  const data = Buffer.allocUnsafe(body.length);
  let done = 0;
  while (done < body.length) {
    const n = readSync(fd, data, done, body.length - done, body.offset + done);
    if (n === 0) throw new Error("a pack ends inside a body");
    done += n;
  }
  return data;
}

function endsWithNewline(fd: number, at: number): boolean {
  const byte = Buffer.alloc(1);
  return readSync(fd, byte, 0, 1, at) === 1 && byte[0] === 0x0a;
}

/**
 * Writes the shards of the bodies named `used` (each found in `packed`, which lie in the journal
 * pack `fd`), every shard to a temporary file renamed into place, then removes whatever else
 * `bodies/` holds but the journal pack (bodies of an earlier recording, files of format 1).
 */
export function writeShards(folder: string, fd: number, packed: ReadonlyMap<string, PackedBody>, used: Iterable<string>): void {
  const shards = new Map<string, string[]>();
  for (const hash of used) {
    if (!packed.has(hash)) continue;
    const shard = shardOf(hash);
    (shards.get(shard) ?? shards.set(shard, []).get(shard)!).push(hash);
  }
  for (const [shard, hashes] of shards) {
    const path = join(folder, shard);
    const out = openSync(`${path}.tmp`, "w");
    try {
      for (const hash of hashes.sort()) {
        const body = packed.get(hash)!;
        writeAll(out, Buffer.concat([packHeader(hash, body.length, body.compressed), readStored(fd, body), NEWLINE]));
      }
    } finally {
      closeSync(out);
    }
    renameSync(`${path}.tmp`, path);
  }
  for (const name of readdirSync(folder)) if (name !== JOURNAL_PACK && !shards.has(name)) rmSync(join(folder, name), { force: true });
}

export function writeAll(fd: number, data: Uint8Array, position?: number): void {
  let done = 0;
  while (done < data.byteLength) done += writeSync(fd, data, done, data.byteLength - done, position === undefined ? null : position + done);
}

export const NEWLINE = Buffer.from("\n");
