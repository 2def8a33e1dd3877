/**
 * The writer thread (see writer.ts): its own connection to the database, making the calls it is
 * sent one at a time, in order, each batch of them in one transaction, and answering each batch
 * with one message once it is committed.
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

/**
 * A batch's calls in one transaction: the store's own transactions nest as savepoints, so a call
 * that fails leaves the others, and the batch's pages share one commit (a replayed crawl wrote a
 * third fewer pages to the WAL). Its answer is posted after the commit, so a page reported
 * committed is.
 */
const inOneTransaction = store.db.transaction((calls: WriterMessage[]) => calls.map(make));

port.on("message", (calls: WriterMessage[]) => {
  port.postMessage(answer(calls));
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
});

function answer(calls: WriterMessage[]): WriterReply[] {
  const closing = calls.findIndex((call) => call.op === "close");
  const writes = closing < 0 ? calls : calls.slice(0, closing);
  let answers: WriterReply[];
  try {
    answers = writes.length > 1 ? inOneTransaction.immediate(writes) : writes.map(make);
  } catch (error) {
    // The batch's transaction could not begin or commit: none of its calls is committed.
    answers = writes.map((call) => ({ seq: call.seq, error: failure(error) }));
  }
  if (closing >= 0) answers.push(...calls.slice(closing).map(make));
  return answers;
}

function failure(error: unknown): { message: string; code?: string } {
  const { message, code } = error as { message: string; code?: string };
  return { message, ...(code ? { code } : {}) };
}

/** Makes one call (in a savepoint of its batch's transaction, or in its own transaction when alone); answers with its failure, if any. */
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
    return { seq: call.seq, error: failure(error) };
  }
}
