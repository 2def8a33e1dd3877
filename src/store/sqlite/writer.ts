import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { SnapshotWrite, StoredDocument } from "../../core/index.js";
import type { CacheMessage } from "../cache-entry.js";
import type { FetchedAnswer } from "../fetched-answer.js";

/** A write the writer thread makes: the store's method of that name, with these arguments. */
export type WriterCall =
  | { op: "saveDocument"; args: [record: StoredDocument, snapshot?: SnapshotWrite, cache?: CacheMessage] }
  | { op: "saveStepState"; args: [runId: number, stepId: string, state: string] }
  | { op: "keepFetched"; args: [runId: number, key: string, answer: FetchedAnswer] }
  | { op: "close"; args: [] };

/** A call as sent: numbered, with the time the store's clock gave when it was made. */
export type WriterMessage = WriterCall & { seq: number; now: string };

/** The answer to one call: nothing, or why it failed. The thread answers a batch of calls with one message. */
export interface WriterReply {
  seq: number;
  error?: { message: string; code?: string };
}

/** What the writer thread starts with. */
export interface WriterData {
  path: string;
  busyTimeoutMs: number;
  port: MessagePort;
  /** Counts the answers posted (one per batch), so a caller blocked in `drain` wakes at each one. */
  replies: Int32Array;
}

/** Calls sent and not yet committed, past which `send` waits for the thread to catch up: bounds memory. */
export const MAX_QUEUED = 64;
/** The most calls sent to the thread in one message. */
export const BATCH_CALLS = 8;
/** How long `drain` waits for a thread that answers nothing before it gives up on it. */
const STALLED_MS = 120_000;

/**
 * A thread with its own connection to the database that commits pages while the calling thread
 * fetches and parses the next ones. Calls are committed in the order they were sent, those sent
 * together in one transaction (each in a savepoint of its own, so one that fails leaves the
 * others), so a killed process loses only pages whose commit had not been reported yet. `send`
 * resolves when its call is committed; `drain` blocks until every call sent is, so a read made
 * after it sees them all. Calls made while the thread is busy wait and go together when it
 * answers: waking the thread for each page cost the sending thread more than copying the page.
 */
export class Writer {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly replies = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private sent = 0;
  /** Calls not posted yet: they go as one message once the batch with the thread is answered. */
  private batch: WriterMessage[] = [];
  /** Batches posted and not answered yet. */
  private posted = 0;
  /** The failure of a call nobody waits for (a step's saved state): thrown by the next `drain`. */
  private unreported: Error | undefined;
  /** Why the thread is gone, once it is: later calls fail at once with it. */
  private failed: Error | undefined;
  private closing = false;

  constructor(path: string, busyTimeoutMs: number) {
    const { port1, port2 } = new MessageChannel();
    const data: WriterData = { path, busyTimeoutMs, port: port2, replies: this.replies };
    // From the folder above, so the path holds both here and in the CLI's bundle (dist/cli/, one level
    // down from the package's dist/ as this folder is); the thread itself always runs dist/store/.
    this.worker = new Worker(new URL("./writer-thread.js", import.meta.url), {
      workerData: data,
      transferList: [port2],
      // The thread holds a batch of pages at a time: a small young generation keeps its heap (and the
      // process's RSS) small. 1 MB rather than 4 took 3-4 MB off a 1,000-page crawl's peak, for the same CPU.
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
    });
    this.worker.unref();
    this.worker.on("error", (error) => this.failAll(new Error(`the database writer thread failed: ${error.message}`)));
    this.worker.on("exit", (code) => {
      if (!this.closing) this.failAll(new Error(`the database writer thread stopped (exit code ${code})`));
    });
    this.port = port1;
    this.port.on("message", (replies: WriterReply[]) => this.settle(replies));
    this.port.unref();
  }

  /** Calls sent whose commit has not been reported yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Sends a call; resolves once it is committed, rejects with the database's error. */
  send(call: WriterCall, now: string): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue(call, now, { resolve, reject }));
  }

  /** Sends a call nobody waits for; its failure is thrown by the next `drain`. */
  post(call: WriterCall, now: string): void {
    this.enqueue(call, now, { resolve: () => undefined, reject: (error) => (this.unreported ??= error) });
  }

  /** Blocks until at most `left` calls are uncommitted (all of them by default), then reports a failure nobody waited for. */
  drain(left = 0): void {
    let stalledSince = Date.now();
    if (this.posted === 0) this.flush();
    while (this.waiting.size > left) {
      const seen = Atomics.load(this.replies, 0);
      let message: { message: WriterReply[] } | undefined;
      while ((message = receiveMessageOnPort(this.port))) {
        this.settle(message.message);
        stalledSince = Date.now();
      }
      if (this.waiting.size <= left) break;
      if (Date.now() - stalledSince > STALLED_MS) throw new Error(`the database writer thread answered nothing for ${STALLED_MS / 1000} s`);
      Atomics.wait(this.replies, 0, seen, 1000);
    }
    if (left === 0 && this.unreported) {
      const error = this.unreported;
      this.unreported = undefined;
      throw error;
    }
  }

  /** Commits what is left, closes the thread's connection and ends the thread. */
  close(): void {
    this.closing = true;
    this.post({ op: "close", args: [] }, new Date().toISOString());
    try {
      this.drain();
    } finally {
      this.port.close();
      void this.worker.terminate();
    }
  }

  private enqueue(call: WriterCall, now: string, waiter: { resolve: () => void; reject: (error: Error) => void }): void {
    if (this.failed) return waiter.reject(this.failed);
    if (this.waiting.size >= MAX_QUEUED) this.drain(MAX_QUEUED / 2);
    const seq = ++this.sent;
    this.waiting.set(seq, waiter);
    // A pending commit keeps the process alive; an idle thread does not.
    if (this.waiting.size === 1) this.port.ref();
    this.batch.push({ ...call, seq, now });
    // A call made while the thread is idle goes at once; others wait for its answer, a batch at most
    // BATCH_CALLS long (what the thread takes in at once is what its heap must hold).
    if (this.posted === 0 || this.batch.length >= BATCH_CALLS) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.posted++;
    this.port.postMessage(batch);
  }

  /** Takes the answer to a batch: settles its calls, then sends what waited meanwhile. */
  private settle(replies: WriterReply[]): void {
    this.posted--;
    for (const reply of replies) {
      const waiter = this.waiting.get(reply.seq);
      if (!waiter) continue;
      this.waiting.delete(reply.seq);
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
      else waiter.resolve();
    }
    if (this.posted === 0) this.flush();
    if (this.waiting.size === 0) this.port.unref();
  }

  private failAll(error: Error): void {
    this.failed ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    this.batch = [];
    this.unreported ??= error;
    this.port.unref();
  }
}

/** Keys of calls on their way to the writer thread (several calls may share one), until each call settles. */
export class PendingKeys {
  private readonly counts = new Map<string, number>();

  /** Counts `key` as pending until `committed` settles. */
  track(key: string, committed: Promise<void>): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const settled = (): void => {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
    committed.then(settled, settled);
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }
}
