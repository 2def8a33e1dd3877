/**
 * The thread that writes a recording's bodies (see body-writer.ts): each body it is sent is
 * hashed, gzipped when large, and written under its hash (once per content), and its name
 * answered, so the thread converting pages does none of that work.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { constants, gzipSync } from "node:zlib";
import { bodyName, GZIP_OVER_BYTES } from "./fixture-files.js";
import type { BodyReply, BodyRequest } from "./body-writer.js";

const { dir } = workerData as { dir: string };
const bodies = join(dir, "bodies");
mkdirSync(bodies, { recursive: true });
/** Bodies on disk, written by this thread or found there. */
const written = new Set<string>();

parentPort!.on("message", ({ seq, data }: BodyRequest) => {
  let reply: BodyReply;
  try {
    const name = bodyName(data);
    if (!written.has(name)) {
      const path = join(bodies, name);
      if (!existsSync(path)) {
        const tmp = `${path}.${process.pid}-${threadId}.tmp`;
        // The fastest level: a few percent more bytes for several times less work than the default.
        writeFileSync(tmp, data.byteLength > GZIP_OVER_BYTES ? gzipSync(data, { level: constants.Z_BEST_SPEED }) : data);
        renameSync(tmp, path);
      }
      written.add(name);
    }
    reply = { seq, name };
  } catch (error) {
    reply = { seq, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
