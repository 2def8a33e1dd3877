/**
 * The writer thread (see writer.ts): its own connection to the database, making the calls it is
 * sent one at a time, in order, and answering each.
 */
import { workerData } from "node:worker_threads";
import { unpackCache } from "./cache-entry.js";
import { SqliteStore } from "./sqlite-store.js";
import type { WriterData, WriterMessage, WriterReply } from "./writer.js";

const { path, busyTimeoutMs, port, replies } = workerData as WriterData;
/** The calling store's clock, as it read when the call was made, so both threads stamp rows alike. */
let now = new Date();
const store = new SqliteStore(path, { busyTimeoutMs, now: () => now });

port.on("message", (call: WriterMessage) => {
  now = new Date(call.now);
  let reply: WriterReply = { seq: call.seq };
  try {
    if (call.op === "saveDocument") {
      const [record, snapshot, cache] = call.args;
      void store.saveDocument(record, snapshot, cache && unpackCache(cache, record.document));
    }
    else if (call.op === "saveStepState") store.saveStepState(...call.args);
    else store.close();
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    reply = { seq: call.seq, error: { message, ...(code ? { code } : {}) } };
  }
  port.postMessage(reply);
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
});
