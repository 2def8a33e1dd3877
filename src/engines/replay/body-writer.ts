import { rmSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { ScrapelineError } from "../../core/index.js";

/** A body sent to the thread, numbered; or, last, the bodies the index names, to be sorted into the shards. The thread is sent them in batches. */
export type BodyRequest = { seq: number; data: Uint8Array } | { seq: number; used: string[] };

/** The thread's answer to each request of a batch: the body's name (its hash), or why it could not be written. */
export type BodyReply = { seq: number; name: string; error?: undefined } | { seq: number; error: string; name?: undefined };

/**
 * Writes a recording's bodies on a thread of its own (body-writer-thread.ts): hashing,
 * compression and the writes to the journal pack happen there, so a recording run converts pages
 * at its usual pace. The thread keeps the process alive only while bodies are being written.
 */
export class BodyWriter {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (name: string) => void; reject: (error: Error) => void }>();
  /** Requests not posted yet (and the buffers they move): they go as one message once the thread answers the last. */
  private batch: BodyRequest[] = [];
  private moved: ArrayBuffer[] = [];
  /** Messages posted and not answered yet. */
  private posted = 0;

  constructor(private readonly dir: string) {}

  /** Writes `data` as a body of the fixture; resolves with its name once it is on disk. */
  write(data: Uint8Array): Promise<string> {
    // A copy of its own, moved rather than cloned: a Buffer may view a larger pooled ArrayBuffer, which a clone would copy whole.
    const copy = new Uint8Array(data);
    return this.ask((seq) => ({ seq, data: copy }), [copy.buffer]);
  }

  /**
   * Sorts the bodies named `used` into the shards and ends the thread (once its bodies are
   * written: the caller waits for them first).
   */
  async close(used: Iterable<string>): Promise<void> {
    // No body was written, so the index names none: what an earlier recording left goes.
    if (!this.worker) return rmSync(join(this.dir, "bodies"), { recursive: true, force: true });
    try {
      await this.ask((seq) => ({ seq, used: [...used] }), []);
    } finally {
      const worker = this.worker;
      this.worker = undefined;
      await worker?.terminate();
    }
  }

  private ask(request: (seq: number) => BodyRequest, transfer: ArrayBuffer[]): Promise<string> {
    const worker = this.thread();
    const seq = ++this.seq;
    if (this.waiting.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.batch.push(request(seq));
      this.moved.push(...transfer);
      // A body sent while the thread is idle goes at once; the others wait for its answer and go
      // together: waking the thread for each body cost the converting thread more than the writes.
      if (this.posted === 0) this.flush(worker);
    });
  }

  private flush(worker: Worker): void {
    if (this.batch.length === 0) return;
    const [batch, moved] = [this.batch, this.moved];
    this.batch = [];
    this.moved = [];
    this.posted++;
    worker.postMessage(batch, moved);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./body-writer-thread.js", import.meta.url), { workerData: { dir: this.dir } });
    worker.on("message", (replies: BodyReply[]) => {
      this.posted--;
      for (const reply of replies) {
        const waiter = this.waiting.get(reply.seq);
        this.waiting.delete(reply.seq);
        if (reply.error !== undefined) waiter?.reject(new ScrapelineError("internal", `the fixture ${this.dir} could not keep a body: ${reply.error}`));
        else waiter?.resolve(reply.name);
      }
      if (this.waiting.size === 0) worker.unref();
      this.flush(worker);
    });
    worker.on("error", (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(new ScrapelineError("internal", `the fixture ${this.dir} could not keep its bodies: ${error.message}`, { cause: error }));
      this.waiting.clear();
      this.batch = [];
      this.moved = [];
      this.posted = 0;
      this.worker = undefined;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
