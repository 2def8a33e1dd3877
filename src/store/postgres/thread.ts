/**
 * The PostgreSQL thread (see bridge.ts): owns the connection pool, makes the calls it is sent one
 * at a time, in order, each write in its own transaction (pages waiting together share one, each
 * in a savepoint), and answers each with one message.
 */
import { workerData } from "node:worker_threads";
import pg from "pg";
import type { CacheWrite, SnapshotWrite, StoredDocument } from "../../core/index.js";
import type { FetchedAnswer } from "../fetched-answer.js";
import { migrate } from "./migrate.js";
import { OPERATIONS, READS, type OperationName } from "./operations.js";
import type { BridgeData, BridgeMessage, BridgeReply } from "./bridge.js";

const { url, port, replies } = workerData as BridgeData;
// One connection: calls are made one at a time. The pool reconnects after a connection is lost.
// A process stopped in the middle of a transaction (frozen, or cut off) has it ended by the server after a minute, so its locks do not hold other processes forever.
const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 30_000, application_name: "scrapeline", idle_in_transaction_session_timeout: 60_000 } as pg.PoolConfig);
// An idle connection's error (the server restarted) is not a call's: the next call gets a new connection.
pool.on("error", () => undefined);

// However the thread ends, a caller waiting for an answer is told.
process.on("exit", () => {
  Atomics.store(replies, 1, 1);
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
});

/** Pages saved in one transaction at most (each in a savepoint of its own). */
const PAGES_PER_COMMIT = 32;

/** Calls sent with a run's pages, saved in their commits: pages and the raw answers kept for --from-run. */
const SAVED_WITH_PAGES: ReadonlySet<string> = new Set(["saveDocument", "fetched.keep"]);

/** Calls received and not answered yet, in order; one worker loop makes them. */
const queue: BridgeMessage[] = [];
let working = false;

port.on("message", (message: BridgeMessage) => {
  queue.push(message);
  if (!working) void work();
});

function answer(reply: BridgeReply): void {
  port.postMessage(reply);
  Atomics.add(replies, 0, 1);
  Atomics.notify(replies, 0);
}

/**
 * Makes the calls in order. Pages waiting one after another are saved together: one commit for
 * the lot, each page in a savepoint, so a page that fails is rolled back alone and the others are
 * kept. Each page is answered once the commit that holds it is made.
 */
async function work(): Promise<void> {
  working = true;
  try {
    while (queue.length > 0) {
      let pages = 0;
      while (pages < queue.length && pages < PAGES_PER_COMMIT && SAVED_WITH_PAGES.has(queue[pages]!.op)) pages++;
      if (pages > 1) {
        for (const reply of await savePages(queue.splice(0, pages))) answer(reply);
      } else {
        answer(await make(queue.shift()!));
      }
    }
  } finally {
    working = false;
  }
}

async function savePages(messages: BridgeMessage[]): Promise<BridgeReply[]> {
  const client = await pool.connect().catch((error: Error) => error);
  if (client instanceof Error) return messages.map((m) => failed(m.seq, client));
  let broken = false;
  try {
    await client.query("BEGIN");
    const out: BridgeReply[] = [];
    for (const message of messages) {
      await client.query("SAVEPOINT page");
      try {
        const tx = { client, now: message.now };
        if (message.op === "saveDocument") {
          const [record, snapshot, cache] = message.args as [StoredDocument, SnapshotWrite?, CacheWrite?];
          await OPERATIONS.saveDocument(tx, record, snapshot, cache);
        } else {
          const [runId, key, answer] = message.args as [number, string, FetchedAnswer];
          await OPERATIONS["fetched.keep"](tx, runId, key, answer);
        }
        await client.query("RELEASE SAVEPOINT page");
        out.push({ seq: message.seq, value: undefined });
      } catch (error) {
        await client.query("ROLLBACK TO SAVEPOINT page");
        out.push(failed(message.seq, error));
      }
    }
    await client.query("COMMIT");
    return out;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => (broken = true));
    return messages.map((m) => failed(m.seq, error));
  } finally {
    client.release(broken);
  }
}

function failed(seq: number, error: unknown): BridgeReply {
  const { message, code } = error as { message: string; code?: string };
  return { seq, error: { message: String(message), ...(code ? { code: String(code) } : {}) } };
}

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
    return failed(message.seq, error);
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
