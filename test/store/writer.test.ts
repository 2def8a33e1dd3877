import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Document } from "../../src/core/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { BATCH_CALLS, MAX_QUEUED } from "../../src/store/sqlite/writer.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-writer-"));
let n = 0;
const freshPath = () => join(dir, `db-${n++}.db`);

const doc = (url: string, markdown: string): Document => ({ markdown, links: [`${url}/next`], metadata: { sourceURL: url, url, statusCode: 200 } });
const record = (runId: number, url: string, markdown = `# ${url}`) => ({ runId, stepId: "s", url, fetchedAt: "2026-11-23T00:00:00.000Z", creditsUsed: 1, document: doc(url, markdown) });

function started(path: string, writerAfter: number, now?: () => Date) {
  const store = new SqliteStore(path, { writerAfter, ...(now ? { now } : {}) });
  const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
  store.startStep(run.id, "s", "crawl");
  return { store, runId: run.id };
}

/** What another connection (another process, say) sees committed. */
function committedUrls(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT url FROM documents ORDER BY url").pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

describe("the writer thread", () => {
  it("takes over after the given number of pages; each page's promise settles once another connection sees it", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 2);
    const results = ["a", "b", "c", "d"].map((p) => store.saveDocument(record(runId, `https://e.com/${p}`)));
    expect(results[0]).toBeUndefined();
    expect(results[1]).toBeUndefined();
    expect(results[2]).toBeInstanceOf(Promise);
    await results[2];
    expect(committedUrls(path)).toEqual(expect.arrayContaining(["https://e.com/a", "https://e.com/b", "https://e.com/c"]));
    await results[3];
    expect(committedUrls(path)).toEqual(["https://e.com/a", "https://e.com/b", "https://e.com/c", "https://e.com/d"]);
    store.close();
  });

  it("makes every other call wait for the pages sent before it", () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    for (let i = 0; i < 50; i++) void store.saveDocument(record(runId, `https://e.com/${String(i).padStart(2, "0")}`, `page ${i}`));
    // Not awaited: the read itself waits for the thread.
    expect(store.storedUrls(runId, "s").size).toBe(50);
    store.finishStep(runId, "s", "succeeded");
    const docs = [...store.documents(runId, "s")];
    expect(docs).toHaveLength(50);
    expect(docs[7]!.document.markdown).toBe("page 7");
    expect(store.getSteps(runId)[0]).toMatchObject({ documents: 50, creditsUsed: 50 });
    store.close();
  });

  it("commits a step's saved state after the pages sent before it, and stamps rows with the store's clock", async () => {
    const path = freshPath();
    const clock = new Date("2030-01-02T03:04:05.000Z");
    const { store, runId } = started(path, 0, () => clock);
    const pages = [store.saveDocument(record(runId, "https://e.com/a"), undefined, { optionsKey: "k", document: doc("https://e.com/a", "# a") })];
    store.saveStepState(runId, "s", JSON.stringify({ done: ["https://e.com/a"] }));
    await Promise.all(pages);
    expect(store.stepState(runId, "s")).toBe(JSON.stringify({ done: ["https://e.com/a"] }));
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT fetched_at FROM page_cache WHERE url = ?").pluck().get("https://e.com/a")).toBe(clock.toISOString());
    db.close();
    // The cache entry written by the thread serves the page with its links.
    expect(store.cacheGet("https://e.com/a", "k", Number.MAX_SAFE_INTEGER)?.document.links).toEqual(["https://e.com/a/next"]);
    store.close();
  });

  it("writes a crawl's cache entry (the stored page plus its links) sharing the page's blob", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const page = doc("https://e.com/c", "# crawled");
    const { links: _links, ...withoutLinks } = page;
    await store.saveDocument({ ...record(runId, "https://e.com/c"), document: withoutLinks }, undefined, { optionsKey: "k", document: page });
    const cached = store.cacheGet("https://e.com/c", "k", Number.MAX_SAFE_INTEGER)?.document;
    expect(cached).toEqual(page);
    const db = new Database(path, { readonly: true });
    const row = db.prepare("SELECT blob_hash FROM page_cache WHERE url = ?").pluck().get("https://e.com/c");
    expect(db.prepare("SELECT blob_hash FROM documents WHERE url = ?").pluck().get("https://e.com/c")).toBe(row);
    db.close();
    store.close();
  });

  it("rejects a page the database refuses, with the database's reason, and keeps going", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const refused = store.saveDocument(record(runId + 100, "https://e.com/orphan"));
    const fine = store.saveDocument(record(runId, "https://e.com/fine"));
    await expect(refused).rejects.toThrow(/FOREIGN KEY/);
    await fine;
    expect(committedUrls(path)).toEqual(["https://e.com/fine"]);
    store.close();
  });

  it("commits the rest of a batch when the database refuses one page of it, and keeps nothing of that page", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const blobs = () => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare("SELECT COUNT(*) FROM blobs").pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const blobsBefore = blobs();
    // The first goes at once; the others wait for its answer and go together, as one batch.
    const first = store.saveDocument(record(runId, "https://e.com/0"));
    const before = store.saveDocument(record(runId, "https://e.com/1"));
    const refused = store.saveDocument(record(runId + 100, "https://e.com/orphan"));
    const after = store.saveDocument(record(runId, "https://e.com/2"));
    await expect(refused).rejects.toThrow(/FOREIGN KEY/);
    await Promise.all([first, before, after]);
    expect(committedUrls(path)).toEqual(["https://e.com/0", "https://e.com/1", "https://e.com/2"]);
    // The refused page's blob went with it.
    expect(blobs()).toBe(blobsBefore + 3);
    store.close();
  });

  it("reports a refused step state at the next call that waits", () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    void store.saveDocument(record(runId, "https://e.com/a"))?.catch(() => undefined);
    store.db.exec("CREATE TRIGGER no_state BEFORE UPDATE OF state ON step_runs BEGIN SELECT RAISE(ABORT, 'state refused'); END");
    store.saveStepState(runId, "s", "{}");
    expect(() => store.getSteps(runId)).toThrow(/state refused/);
    // Reported once: the store goes on.
    expect(store.getSteps(runId)).toHaveLength(1);
    store.close();
  });

  it("never lets more than MAX_QUEUED pages wait for their commit: sending blocks first", () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    let most = 0;
    for (let i = 0; i < 3 * MAX_QUEUED; i++) {
      void store.saveDocument(record(runId, `https://e.com/${i}`, `${"y".repeat(20_000)}${i}`));
      most = Math.max(most, store.pendingWrites);
    }
    expect(most).toBe(MAX_QUEUED);
    store.close();
    expect(committedUrls(path)).toHaveLength(3 * MAX_QUEUED);
  });

  it("sends calls made while the thread is busy together, at most BATCH_CALLS to a message, in order", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const first = store.saveDocument(record(runId, "https://e.com/00"));
    const port = (store as unknown as { writer: { port: { postMessage(message: unknown): void } } }).writer.port;
    const sent: { seq: number }[][] = [];
    const post = port.postMessage.bind(port);
    port.postMessage = (message: unknown) => {
      sent.push(message as { seq: number }[]);
      post(message);
    };
    const rest = Array.from({ length: 20 }, (_, i) => store.saveDocument(record(runId, `https://e.com/${String(i + 1).padStart(2, "0")}`)));
    await Promise.all([first, ...rest]);
    const calls = sent.flat();
    expect(calls.map((call) => call.seq)).toEqual([...calls.map((call) => call.seq)].sort((a, b) => a - b));
    expect(calls).toHaveLength(20);
    expect(sent.length).toBeLessThan(20);
    expect(Math.max(...sent.map((batch) => batch.length))).toBeLessThanOrEqual(BATCH_CALLS);
    expect(committedUrls(path)).toHaveLength(21);
    store.close();
  });

  it("answers a page-cache hit without waiting for the pages still queued", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const page = doc("https://e.com/cached", "# cached");
    await store.saveDocument(record(runId, "https://e.com/cached"), undefined, { optionsKey: "k", document: page });
    for (let i = 0; i < 20; i++) void store.saveDocument(record(runId, `https://e.com/q${i}`));
    expect(store.pendingWrites).toBe(20);
    expect(store.cacheGet("https://e.com/cached", "k", Number.MAX_SAFE_INTEGER)?.document.markdown).toBe("# cached");
    expect(store.pendingWrites).toBe(20);
    // Any other read waits for them.
    expect(store.storedUrls(runId, "s").size).toBe(21);
    expect(store.pendingWrites).toBe(0);
    store.close();
  });

  it.runIf(existsSync("/proc/thread-self"))("runs at a lower scheduling priority than the thread that fetches", async () => {
    const niceOfThreads = () =>
      new Map(
        readdirSync("/proc/self/task").flatMap((tid): [string, number][] => {
          let stat: string;
          try {
            stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
          } catch {
            return []; // a thread that ended meanwhile (an earlier test's writer)
          }
          // Fields after the command name (which may hold spaces): nice is the 19th field of the line.
          return [[tid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])]];
        }),
      );
    const base = getPriority();
    const before = niceOfThreads();
    const path = freshPath();
    const { store, runId } = started(path, 0);
    await store.saveDocument(record(runId, "https://e.com/niced"));
    const newThreads = [...niceOfThreads()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    expect(newThreads).toContain(Math.min(19, base + 10));
    // The calling thread keeps its priority.
    expect(getPriority()).toBe(base);
    store.close();
  });

  it("fails the pages waiting, and every later one at once, when the thread stops unasked", async () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    await store.saveDocument(record(runId, "https://e.com/first"));
    const thread = (store as unknown as { writer: { worker: { terminate(): Promise<number> } } }).writer.worker;
    const stopping = thread.terminate();
    const waiting = store.saveDocument(record(runId, "https://e.com/waiting"));
    await stopping;
    await expect(waiting).rejects.toThrow(/writer thread stopped/);
    await expect(store.saveDocument(record(runId, "https://e.com/later"))).rejects.toThrow(/writer thread stopped/);
    expect(committedUrls(path)).toContain("https://e.com/first");
    // Closing reports the failure and still closes the store's own connection.
    expect(() => store.close()).toThrow(/writer thread stopped/);
    expect(store.db.open).toBe(false);
  });

  it("reads a URL's latest snapshot without waiting for other pages, and waits when one of that URL is on its way", () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const snapshot = (url: string, markdown: string) => ({ url, tag: null, fingerprint: `f-${markdown}`, normalizerKey: "n", markdown, statusCode: 200 });
    void store.saveDocument(record(runId, "https://e.com/a"), snapshot("https://e.com/a", "version 1"));
    for (let i = 0; i < 20; i++) void store.saveDocument(record(runId, `https://e.com/q${i}`));
    const pending = store.pendingWrites;
    expect(pending).toBeGreaterThan(0);
    // Another URL (and the same URL under another tag) has nothing on its way: no wait.
    expect(store.latestSnapshot("https://e.com/b", null)).toBeUndefined();
    expect(store.latestSnapshot("https://e.com/a", "other")).toBeUndefined();
    expect(store.pendingWrites).toBe(pending);
    // Its own snapshot is on its way: the read waits and sees it.
    const latest = store.latestSnapshot("https://e.com/a", null);
    expect(latest?.fingerprint).toBe("f-version 1");
    expect(store.snapshotMarkdown(latest!)).toBe("version 1");
    store.close();
  });

  it("close() commits every page sent, however many are waiting", () => {
    const path = freshPath();
    const { store, runId } = started(path, 0);
    const big = "x".repeat(100_000);
    for (let i = 0; i < 300; i++) void store.saveDocument(record(runId, `https://e.com/${i}`, `${big}${i}`));
    store.close();
    expect(committedUrls(path)).toHaveLength(300);
  });
});
