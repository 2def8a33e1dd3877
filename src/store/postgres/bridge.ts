import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { OperationName } from "./operations.js";

/** A call as sent to the thread: numbered, with the time the store's clock gave when it was made. */
export type BridgeMessage = { seq: number; now: string } & ({ op: "open" | "close"; args: [] } | { op: OperationName; args: unknown[] });

/** The answer to one call: its value, or why it failed. */
export interface BridgeReply {
  seq: number;
  value?: unknown;
  error?: { message: string; code?: string };
}

/** What the thread starts with. */
export interface BridgeData {
  url: string;
  port: MessagePort;
  /** [0] counts the answers posted, so a caller blocked in `call` wakes at each one; [1] is 1 once the thread has stopped. */
  replies: Int32Array;
}

/** An error the database (or the thread) gave, with PostgreSQL's code when there is one. */
export class DatabaseError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Calls sent without waiting (pages being saved) past which `send` waits for the thread to catch up. */
export const MAX_PENDING = 64;

/** How long a call waits for a thread that answers nothing at all before it gives up on it. */
const STALLED_MS = 300_000;

/**
 * Calls PostgreSQL synchronously, as the Store port is: a thread of its own owns the connections
 * (node-postgres is asynchronous), and the calling thread waits for each answer on a shared
 * counter (Atomics.wait) and takes it from the port (receiveMessageOnPort), without turning its
 * event loop. Calls are answered in the order they were made.
 */
export class PostgresBridge {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly replies = new Int32Array(new SharedArrayBuffer(8));
  private sent = 0;
  private closed = false;
  /** Calls sent with `send` whose answer has not come yet. */
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel();
    const data: BridgeData = { url, port: port2, replies: this.replies };
    this.worker = new Worker(new URL("./thread.js", import.meta.url), { workerData: data, transferList: [port2] });
    this.worker.unref();
    this.worker.on("exit", () => this.failAll(new DatabaseError("the PostgreSQL thread stopped")));
    this.port = port1;
    // Answers to calls nobody blocks for arrive here while the calling thread runs on.
    this.port.on("message", (reply: BridgeReply) => this.settle(reply));
    this.port.unref();
  }

  /** Calls sent with `send` and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * Makes a call without waiting for it: the promise settles with its answer. Calls made after it
   * (of either kind) are answered after it. When MAX_PENDING are unanswered, it first waits until
   * half of them are, which bounds what is held for the thread.
   */
  send(op: BridgeMessage["op"], args: unknown[], now: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new DatabaseError("the PostgreSQL store is closed"));
    if (this.waiting.size >= MAX_PENDING) this.waitUntil(() => this.waiting.size <= MAX_PENDING / 2);
    const seq = ++this.sent;
    const answered = new Promise<unknown>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    if (this.waiting.size === 1) this.port.ref();
    this.port.postMessage({ seq, op, args, now });
    return answered;
  }

  /** Makes a call and waits for its answer: its value, or its error thrown. */
  call(op: BridgeMessage["op"], args: unknown[], now: string): unknown {
    if (this.closed) throw new DatabaseError("the PostgreSQL store is closed");
    const seq = ++this.sent;
    this.port.postMessage({ seq, op, args, now });
    let answer: BridgeReply | undefined;
    this.waitUntil(() => answer !== undefined, (reply) => reply.seq === seq && (answer = reply) !== undefined);
    if (answer!.error) throw new DatabaseError(answer!.error.message, answer!.error.code);
    return answer!.value;
  }

  /**
   * Blocks until `done()` holds, taking answers from the port as they come: those `mine` claims
   * are its caller's, the others settle the calls sent with `send`.
   */
  private waitUntil(done: () => boolean, mine: (reply: BridgeReply) => boolean = () => false): void {
    let waitingSince = Date.now();
    for (;;) {
      const seen = Atomics.load(this.replies, 0);
      let received: { message: BridgeReply } | undefined;
      while ((received = receiveMessageOnPort(this.port))) if (!mine(received.message)) this.settle(received.message);
      if (done()) return;
      if (Atomics.load(this.replies, 1) === 1) throw this.failAll(new DatabaseError("the PostgreSQL thread stopped"));
      if (Atomics.wait(this.replies, 0, seen, 1000) !== "timed-out") waitingSince = Date.now();
      // A thread that never started (it could not load) answers nothing and never says it stopped.
      else if (Date.now() - waitingSince > STALLED_MS) throw new DatabaseError(`the PostgreSQL thread answered nothing for ${STALLED_MS / 1000} s`);
    }
  }

  /** Fails every call still waiting for an answer (the thread is gone); returns the error. */
  private failAll(error: DatabaseError): DatabaseError {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    this.port.unref();
    return error;
  }

  private settle(reply: BridgeReply): void {
    const waiter = this.waiting.get(reply.seq);
    if (!waiter) return;
    this.waiting.delete(reply.seq);
    if (this.waiting.size === 0) this.port.unref();
    if (reply.error) waiter.reject(new DatabaseError(reply.error.message, reply.error.code));
    else waiter.resolve(reply.value);
  }

  /** Ends the thread's connections, then the thread. */
  close(): void {
    if (this.closed) return;
    try {
      this.call("close", [], new Date().toISOString());
    } finally {
      this.closed = true;
      this.port.close();
      void this.worker.terminate();
    }
  }
}
