/**
 * The PostgreSQL thread (see bridge.ts): owns the connection pool, makes the calls it is sent one
 * at a time, in order, each write in its own transaction, and answers each with one message.
 */
import { workerData } from "node:worker_threads";
import pg from "pg";
import { migrate } from "./migrate.js";
import { OPERATIONS, READS, type OperationName } from "./operations.js";
import type { BridgeData, BridgeMessage, BridgeReply } from "./bridge.js";

const { url, port, replies } = workerData as BridgeData;
// One connection: calls are made one at a time. The pool reconnects after a connection is lost.
const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 30_000, application_name: "scrapeline" } as pg.PoolConfig);
// An idle connection's error (the server restarted) is not a call's: the next call gets a new connection.
pool.on("error", () => undefined);

// However the thread ends, a caller waiting for an answer is told.
process.on("exit", () => {
  Atomics.store(replies, 1, 1);
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
});

let queue: Promise<void> = Promise.resolve();

port.on("message", (message: BridgeMessage) => {
  queue = queue.then(async () => {
    const reply = await make(message);
    port.postMessage(reply);
    Atomics.add(replies, 0, 1);
    Atomics.notify(replies, 0);
  });
});

async function make(message: BridgeMessage): Promise<BridgeReply> {
  try {
    if (message.op === "open") {
      const client = await pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
      return { seq: message.seq, value: undefined };
    }
    if (message.op === "close") {
      await pool.end();
      return { seq: message.seq, value: undefined };
    }
    return { seq: message.seq, value: await transaction(message.op, message.args, message.now) };
  } catch (error) {
    const { message: text, code } = error as { message: string; code?: string };
    return { seq: message.seq, error: { message: String(text), ...(code ? { code: String(code) } : {}) } };
  }
}

/** One call: a write in its own transaction (all or nothing), a read as one statement after another. */
async function transaction(op: OperationName, args: unknown[], now: string): Promise<unknown> {
  const client = await pool.connect();
  let broken = false;
  try {
    const tx = { client, now };
    const call = OPERATIONS[op] as (tx: unknown, ...a: unknown[]) => Promise<unknown>;
    if (READS.has(op)) return await call(tx, ...args);
    await client.query("BEGIN");
    try {
      const value = await call(tx, ...args);
      await client.query("COMMIT");
      return value;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
