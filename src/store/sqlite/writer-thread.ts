/**
 * The writer thread (see writer.ts): its own connection to the database, making the calls it is
 * sent one at a time, in order, and answering each batch of them with one message.
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { workerData } from "node:worker_threads";
import { unpackCache } from "../cache-entry.js";
import { SqliteStore } from "./sqlite-store.js";
import type { WriterData, WriterMessage, WriterReply } from "./writer.js";

/**
 * Commits can wait (the queue before the thread is bounded), fetching cannot: on Linux the thread
 * lowers its own scheduling priority, so when the cores are busy the thread that fetches and
 * converts pages runs first. Elsewhere, or where it is not allowed, nothing changes.
 */
function yieldToFetching(): void {
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, Math.min(19, getPriority(thread) + 10));
  } catch {
    // No /proc, or no permission: the thread keeps the process's priority.
  }
}

yieldToFetching();

const { path, busyTimeoutMs, port, replies } = workerData as WriterData;
/** The calling store's clock, as it read when the call was made, so both threads stamp rows alike. */
let now = new Date();
const store = new SqliteStore(path, { busyTimeoutMs, now: () => now });

port.on("message", (calls: WriterMessage[]) => {
  const answers: WriterReply[] = [];
  for (const call of calls) answers.push(make(call));
  port.postMessage(answers);
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
});

/** Makes one call, in its own transaction as the store would; answers with its failure, if any. */
function make(call: WriterMessage): WriterReply {
  now = new Date(call.now);
  try {
    if (call.op === "saveDocument") {
      const [record, snapshot, cache] = call.args;
      void store.saveDocument(record, snapshot, cache && unpackCache(cache, record.document));
    } else if (call.op === "saveStepState") store.saveStepState(...call.args);
    else if (call.op === "keepFetched") store.keepFetched(call.args[0], call.args[1], { ...call.args[2], ...("body" in call.args[2] ? { body: Buffer.from(call.args[2].body) } : {}) });
    else store.close();
    return { seq: call.seq };
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    return { seq: call.seq, error: { message, ...(code ? { code } : {}) } };
  }
}
