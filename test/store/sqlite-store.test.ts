import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { Document } from "../../src/core/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { PAGE_CACHE_KIB } from "../../src/store/sqlite/sqlite-store.js";
import { MIGRATIONS } from "../../src/store/sqlite/migrations.js";
import { blobHash, compress } from "../../src/store/sqlite/blobs.js";
import Database from "better-sqlite3";
import { openStore } from "../../src/app/common/store.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-store-"));
let n = 0;
const freshPath = () => join(dir, `db-${n++}`, "scrapeline.db");

const doc = (url: string, markdown: string, statusCode = 200): Document => ({ markdown, metadata: { sourceURL: url, url, statusCode } });
const newRun = (store: SqliteStore, name = "p") => store.createRun({ pipelineName: name, pipelineFile: `${name}.yaml`, pipelineHash: "h", planJson: "{}", engine: "local" });

describe("SqliteStore", () => {
  it("creates the file and its folder, in WAL mode, at the latest schema version", () => {
    const path = freshPath();
    const store = new SqliteStore(path);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    store.close();
    expect(statSync(path).isFile()).toBe(true);
  });

  it("stores documents with their credits, and reads them back after the step is compacted", () => {
    const store = new SqliteStore(freshPath());
    const run = newRun(store);
    store.startStep(run.id, "s", "scrape");
    store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/b", fetchedAt: "2026-11-22T00:00:00.000Z", creditsUsed: 1, document: doc("https://e.com/b", "# B") });
    store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/a", fetchedAt: "2026-11-22T00:00:01.000Z", creditsUsed: 5, document: doc("https://e.com/a", "# A") });
    expect([...store.storedUrls(run.id, "s")].sort()).toEqual(["https://e.com/a", "https://e.com/b"]);
    store.finishStep(run.id, "s", "succeeded");
    const docs = [...store.documents(run.id, "s")];
    expect(docs.map((d) => [d.url, d.creditsUsed, d.document.markdown])).toEqual([
      ["https://e.com/a", 5, "# A"],
      ["https://e.com/b", 1, "# B"],
    ]);
    expect(store.getRun(run.id)!.creditsUsed).toBe(6);
    expect(store.getSteps(run.id)[0]).toMatchObject({ status: "succeeded", documents: 2, creditsUsed: 6 });
    expect(store.db.prepare("SELECT COUNT(*) FROM documents").pluck().get()).toBe(0);
    expect(store.db.prepare("SELECT SUM(credits) FROM credit_ledger WHERE run_id = ?").pluck().get(run.id)).toBe(6);
    store.close();
  });

  it("stores identical content once, and an unchanged re-run adds no blob", () => {
    const store = new SqliteStore(freshPath());
    for (let r = 0; r < 3; r++) {
      const run = newRun(store);
      store.startStep(run.id, "s", "scrape");
      for (let i = 0; i < 5; i++) store.saveDocument({ runId: run.id, stepId: "s", url: `https://e.com/${i}`, fetchedAt: new Date().toISOString(), creditsUsed: 1, document: doc(`https://e.com/${i}`, `page ${i}`) });
      store.finishStep(run.id, "s", "succeeded");
      store.finishRun(run.id, "succeeded");
    }
    // 5 pages + 1 manifest + 1 plan, however many runs.
    expect(store.db.prepare("SELECT COUNT(*) FROM blobs").pluck().get()).toBe(7);
    store.close();
  });

  it("keeps SQLite's page cache to its own default size, not the 16 MB the binding is built with", () => {
    const store = new SqliteStore(freshPath());
    expect(store.db.pragma("cache_size", { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(new Database(":memory:").pragma("cache_size", { simple: true })).toBe(-16000);
    store.close();
  });

  it("answers the page cache only within maxAge", () => {
    let now = Date.parse("2026-11-22T00:00:00Z");
    const store = new SqliteStore(freshPath(), { now: () => new Date(now) });
    expect(store.cacheHolds("k")).toBe(false);
    store.cachePut("https://e.com/", "k", doc("https://e.com/", "cached"));
    expect(store.cacheHolds("k")).toBe(true);
    expect(store.cacheHolds("other-options")).toBe(false);
    // Asked once per run: an index lookup, not a scan of the whole cache.
    const plan = store.db.prepare("EXPLAIN QUERY PLAN SELECT 1 FROM page_cache WHERE options_key = ? LIMIT 1").all("k") as { detail: string }[];
    expect(plan.map((row) => row.detail).join(" ")).toMatch(/INDEX page_cache_by_options/);
    expect(store.cacheGet("https://e.com/", "k", 60_000)?.document.markdown).toBe("cached");
    expect(store.cacheGet("https://e.com/", "other-options", 60_000)).toBeUndefined();
    now += 120_000;
    expect(store.cacheGet("https://e.com/", "k", 60_000)).toBeUndefined();
    store.close();
  });

  it("writes a page's cache entry with the page, sharing its blob when they differ only by links", () => {
    const store = new SqliteStore(freshPath());
    const run = newRun(store);
    store.startStep(run.id, "s", "crawl");
    const blobs = () => store.db.prepare("SELECT COUNT(*) FROM blobs").pluck().get() as number;
    const before = blobs();
    const page: Document = { ...doc("https://e.com/a", "# A"), links: ["https://e.com/b", "https://e.com/c"] };
    const { links: _links, ...stored } = page;
    store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/a", fetchedAt: "t", creditsUsed: 1, document: stored }, undefined, { optionsKey: "k", document: page });
    expect(blobs() - before).toBe(2); // the page, and the links apart
    expect(store.cacheGet("https://e.com/a", "k", 60_000)?.document).toEqual(page);
    // Stored as the engine returned it (a scrape step): one blob for both.
    const other: Document = { ...doc("https://e.com/b", "# B"), links: ["https://e.com/a"] };
    store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/b", fetchedAt: "t", creditsUsed: 1, document: other }, undefined, { optionsKey: "k", document: other });
    expect(blobs() - before).toBe(3);
    expect(store.cacheGet("https://e.com/b", "k", 60_000)?.document).toEqual(other);
    expect([...store.documents(run.id, "s")].map((d) => d.document)).toEqual([stored, other]);
    store.close();
  });

  it("reads page-cache entries written whole, with their links, by earlier versions", () => {
    const store = new SqliteStore(freshPath());
    const page: Document = { ...doc("https://e.com/", "old"), links: ["https://e.com/x"] };
    const bytes = Buffer.from(JSON.stringify(page));
    const hash = blobHash(bytes);
    store.db.prepare("INSERT INTO blobs (hash, size, compression, data) VALUES (?, ?, 'br', ?)").run(hash, bytes.length, compress(bytes));
    store.db.prepare("INSERT INTO page_cache (url, options_key, blob_hash, fetched_at) VALUES (?, 'k', ?, ?)").run("https://e.com/", hash, new Date().toISOString());
    expect(store.cacheGet("https://e.com/", "k", 60_000)?.document).toEqual(page);
    store.close();
  });

  it("two stores on one file both write (one waits for the other's lock)", () => {
    const path = freshPath();
    const a = new SqliteStore(path);
    const b = new SqliteStore(path);
    const ra = newRun(a, "a");
    const rb = newRun(b, "b");
    a.startStep(ra.id, "s", "scrape");
    b.startStep(rb.id, "s", "scrape");
    for (let i = 0; i < 20; i++) {
      a.saveDocument({ runId: ra.id, stepId: "s", url: `https://a.com/${i}`, fetchedAt: "t", creditsUsed: 1, document: doc("u", `a${i}`) });
      b.saveDocument({ runId: rb.id, stepId: "s", url: `https://b.com/${i}`, fetchedAt: "t", creditsUsed: 1, document: doc("u", `b${i}`) });
    }
    expect(a.storedUrls(ra.id, "s").size).toBe(20);
    expect(b.storedUrls(rb.id, "s").size).toBe(20);
    expect(a.db.pragma("quick_check", { simple: true })).toBe("ok");
    a.close();
    b.close();
  });

  it("refuses a file that is not a database, without touching it", () => {
    const path = join(dir, "not-a-db.db");
    writeFileSync(path, "this is not sqlite ".repeat(100));
    const before = readFileSync(path);
    expect(() => openStore(path)).toThrow(/not a scrapeline database/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a read-only database with a clear error, leaving it intact", () => {
    const path = freshPath();
    const store = new SqliteStore(path);
    newRun(store);
    store.close();
    const before = readFileSync(path);
    // root ignores permission bits; an immutable file is read-only even for root.
    const immutable = spawnSync("chattr", ["+i", path]).status === 0;
    if (!immutable) chmodSync(path, 0o444);
    try {
      expect(() => {
        const s = openStore(path);
        try {
          newRun(s);
        } finally {
          s.close();
        }
      }).toThrow(/cannot write the database|readonly/);
      expect(readFileSync(path).equals(before)).toBe(true);
    } finally {
      if (immutable) spawnSync("chattr", ["-i", path]);
    }
  });

  it("refuses a database from a newer version", () => {
    const path = freshPath();
    const store = new SqliteStore(path);
    store.db.pragma("user_version = 99");
    store.close();
    expect(() => new SqliteStore(path)).toThrow(/newer than this scrapeline understands/);
  });
});

describe("SqliteStore migrations", () => {
  it("upgrades a database made by the first schema version, keeping its runs", () => {
    const path = join(mkdtempSync(join(tmpdir(), "scrapeline-mig-")), "old.db");
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma("user_version = 1");
    old.prepare("INSERT INTO runs (pipeline_name, pipeline_file, pipeline_hash, plan_json, engine, status, started_at) VALUES ('p', 'p.yaml', 'h', '{}', 'local', 'succeeded', '2026-01-01T00:00:00.000Z')").run();
    old.prepare("INSERT INTO step_runs (run_id, step_id, kind, status) VALUES (1, 's', 'crawl', 'running')").run();
    old.close();
    const store = new SqliteStore(path);
    try {
      expect(store.db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
      expect(store.getRun(1)?.pipelineName).toBe("p");
      store.saveStepState(1, "s", '{"x":1}');
      expect(store.stepState(1, "s")).toBe('{"x":1}');
      expect(store.latestSnapshot("https://example.com/", null)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
