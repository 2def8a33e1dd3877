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

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel();
    const data: BridgeData = { url, port: port2, replies: this.replies };
    this.worker = new Worker(new URL("./thread.js", import.meta.url), { workerData: data, transferList: [port2] });
    this.worker.unref();
    this.port = port1;
    this.port.unref();
  }

  /** Makes a call and waits for its answer: its value, or its error thrown. */
  call(op: BridgeMessage["op"], args: unknown[], now: string): unknown {
    if (this.closed) throw new DatabaseError("the PostgreSQL store is closed");
    const seq = ++this.sent;
    this.port.postMessage({ seq, op, args, now });
    let waitingSince = Date.now();
    for (;;) {
      const seen = Atomics.load(this.replies, 0);
      let received: { message: BridgeReply } | undefined;
      while ((received = receiveMessageOnPort(this.port))) {
        const reply = received.message;
        if (reply.seq !== seq) continue;
        if (reply.error) throw new DatabaseError(reply.error.message, reply.error.code);
        return reply.value;
      }
      if (Atomics.load(this.replies, 1) === 1) throw new DatabaseError("the PostgreSQL thread stopped");
      if (Atomics.wait(this.replies, 0, seen, 1000) !== "timed-out") waitingSince = Date.now();
      // A thread that never started (it could not load) answers nothing and never says it stopped.
      else if (Date.now() - waitingSince > STALLED_MS) throw new DatabaseError(`the PostgreSQL thread answered nothing for ${STALLED_MS / 1000} s`);
    }
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
