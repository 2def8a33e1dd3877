/**
 * The thread that writes a recording's bodies (see body-writer.ts): each body it is sent is
 * hashed and, the first time its content comes, compressed when large and appended to
 * `bodies/journal.pack` (one file for the whole recording: creating a file per body cost more
 * than the rest of recording), and its name answered, so the thread converting pages does none
 * of that work. When the recording ends it sorts the bodies the index names into the shards
 * (body-packs.ts).
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { JOURNAL_PACK, NEWLINE, packRecord, writeAll, writeShards, type PackedBody } from "./body-packs.js";
import { sha256 } from "./fixture-files.js";
import type { BodyReply, BodyRequest } from "./body-writer.js";

const { dir } = workerData as { dir: string };
const bodies = join(dir, "bodies");
mkdirSync(bodies, { recursive: true });
const fd = openSync(join(bodies, JOURNAL_PACK), "w+");
/** Where each body written lies in the journal pack. */
const packed = new Map<string, PackedBody>();
let end = 0;

function append(data: Uint8Array): string {
  const name = sha256(data);
  if (packed.has(name)) return name;
  const { header, stored, compressed } = packRecord(name, data);
  // One write: the header, the body and its newline.
  const record = Buffer.concat([header, stored, NEWLINE]);
  writeAll(fd, record, end);
  packed.set(name, { offset: end + header.byteLength, length: stored.byteLength, compressed });
  end += record.byteLength;
  return name;
}

/** Answers a batch of requests with one message. */
parentPort!.on("message", (requests: BodyRequest[]) => {
  parentPort!.postMessage(requests.map(answer));
});

function answer(request: BodyRequest): BodyReply {
  try {
    if ("data" in request) return { seq: request.seq, name: append(request.data) };
    writeShards(bodies, fd, packed, request.used);
    closeSync(fd);
    return { seq: request.seq, name: "" };
  } catch (error) {
    return { seq: request.seq, error: (error as Error).message };
  }
}
