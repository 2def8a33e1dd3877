/**
 * A conversion thread (see in-thread.ts): converts the files it is sent, one at a time, and
 * answers each with its parsed document or the reason it failed. Whatever a converter throws
 * becomes a failure of that file; running out of heap ends this thread, never the process.
 */
import { parentPort } from "node:worker_threads";
import { isScrapelineError } from "../../../core/index.js";
import { parseFile } from "./index.js";
import type { ThreadAnswer, ThreadJob } from "./in-thread.js";

parentPort!.on("message", (job: ThreadJob) => {
  parseFile(job.file, job.options, undefined, job.limits).then(
    (parsed) => parentPort!.postMessage({ parsed } satisfies ThreadAnswer),
    (error: unknown) => parentPort!.postMessage({ error: failureOf(error, job.file.name) } satisfies ThreadAnswer),
  );
});

function failureOf(error: unknown, name: string): NonNullable<ThreadAnswer["error"]> {
  if (isScrapelineError(error)) return { kind: error.kind, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError && /call stack/i.test(message)) return { kind: "bad-content", message: `${name} nests too deeply to convert (${message})` };
  return { kind: "bad-content", message: `${name} could not be converted (${message})` };
}
