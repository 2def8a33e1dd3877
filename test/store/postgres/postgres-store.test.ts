import { describe, expect, it } from "vitest";
import pg from "pg";
import type { Document } from "../../../src/core/index.js";
import { PostgresStore } from "../../../src/store/index.js";
import { MAX_PENDING } from "../../../src/store/postgres/bridge.js";
import { migrate } from "../../../src/store/postgres/migrate.js";
import { POSTGRES_MIGRATIONS } from "../../../src/store/postgres/schema.js";
import { freshDatabase, postgresMissing } from "../../helpers/postgres.js";

const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL tests skipped: ${missing}`);

async function query<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const doc = (url: string, markdown: string): Document => ({ markdown, metadata: { sourceURL: url, url, statusCode: 200 } });

describe.skipIf(missing !== undefined)("PostgresStore", () => {
  it("migrates a new database once when four connections open it at once", async () => {
    const url = await freshDatabase();
    const clients = await Promise.all([1, 2, 3, 4].map(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }));
    try {
      // Each would fail on a table the other made, were they not taking turns.
      await Promise.all(clients.map((client) => migrate(client)));
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    expect(await query(url, "SELECT version FROM scrapeline_schema")).toEqual([{ version: POSTGRES_MIGRATIONS.length }]);
    const store = new PostgresStore(url);
    expect(store.listRuns()).toEqual([]);
    store.close();
  });

  it("stores identical content once (bytea, by hash): an unchanged re-run adds no blob", async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(url);
    try {
      for (let r = 0; r < 3; r++) {
        const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
        store.startStep(run.id, "s", "scrape");
        for (let i = 0; i < 5; i++) store.saveDocument({ runId: run.id, stepId: "s", url: `https://e.com/${i}`, fetchedAt: new Date().toISOString(), creditsUsed: 1, document: doc(`https://e.com/${i}`, `page ${i}`) });
        store.finishStep(run.id, "s", "succeeded");
        store.finishRun(run.id, "succeeded");
      }
    } finally {
      store.close();
    }
    // 5 pages + 1 manifest + 1 plan, however many runs; the journal is folded away.
    expect(await query(url, "SELECT COUNT(*)::int AS n FROM blobs")).toEqual([{ n: 7 }]);
    expect(await query(url, "SELECT COUNT(*)::int AS n FROM documents")).toEqual([{ n: 0 }]);
    expect(await query(url, "SELECT run_id, SUM(credits)::int AS credits FROM credit_ledger GROUP BY run_id ORDER BY run_id")).toEqual([1, 2, 3].map((id) => ({ run_id: id, credits: 5 })));
  });

  it("leaves nothing of a page whose write fails: its blob goes with its row", async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(url);
    try {
      const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.startStep(run.id, "s", "scrape");
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/", fetchedAt: "t", creditsUsed: 1, document: doc("https://e.com/", "kept") });
      // The page's blob is written before its row, whose run does not exist.
      await expect(store.saveDocument({ runId: 999, stepId: "s", url: "https://e.com/x", fetchedAt: "t", creditsUsed: 1, document: doc("https://e.com/x", "never") })).rejects.toThrow(/foreign key/);
      expect([...store.storedUrls(run.id, "s")]).toEqual(["https://e.com/"]);
    } finally {
      store.close();
    }
    expect(await query(url, "SELECT COUNT(*)::int AS n FROM documents")).toEqual([{ n: 1 }]);
    // The plan and the kept page.
    expect(await query(url, "SELECT COUNT(*)::int AS n FROM blobs")).toEqual([{ n: 2 }]);
  });

  it("saves pages while the caller runs on: each promise settles once its page is committed, and later reads see every page sent before them", async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(url);
    try {
      const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.startStep(run.id, "s", "crawl");
      const saves = Array.from({ length: 100 }, (_, i) => store.saveDocument({ runId: run.id, stepId: "s", url: `https://e.com/${i}`, fetchedAt: "t", creditsUsed: 1, document: doc(`https://e.com/${i}`, `page ${i}`) }));
      // Nothing was waited for but to keep at most MAX_PENDING on their way.
      expect(store.pendingWrites).toBeGreaterThan(0);
      expect(store.pendingWrites).toBeLessThanOrEqual(MAX_PENDING);
      expect(store.storedUrls(run.id, "s").size).toBe(100);
      await Promise.all(saves);
      expect(store.pendingWrites).toBe(0);
      // Pages committed together: one that fails is rolled back alone.
      const mixed = await Promise.allSettled([101, 999, 102].map((runId, i) => store.saveDocument({ runId: runId === 999 ? 999 : run.id, stepId: "s", url: `https://e.com/m${i}`, fetchedAt: "t", creditsUsed: 1, document: doc("u", `m${i}`) })));
      expect(mixed.map((m) => m.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(store.storedUrls(run.id, "s").size).toBe(102);
      expect(store.getSteps(run.id)[0]).toMatchObject({ documents: 102, creditsUsed: 102 });
    } finally {
      store.close();
    }
  });

  it("adds a version of a page after one another process adds at the same moment, instead of failing on its number", async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(url);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.startStep(run.id, "s", "scrape");
      const page = "https://e.com/price";
      const snapshot = (markdown: string) => ({ url: page, tag: null, fingerprint: markdown, normalizerKey: "n", markdown, statusCode: 200 });
      await store.saveDocument({ runId: run.id, stepId: "s", url: page, fetchedAt: "t", creditsUsed: 1, document: doc(page, "v1") }, snapshot("v1"));
      // Another process adds version 2 and has not committed yet when this store adds its own.
      await other.query("BEGIN");
      await other.query("INSERT INTO snapshots (url, branch, tag, version, fingerprint, normalizer_key, blob_hash, status_code, first_seen_at, last_seen_at) SELECT url, branch, tag, 2, 'v2', 'n', blob_hash, 200, 't', 't' FROM snapshots WHERE version = 1");
      const saved = store.saveDocument({ runId: run.id, stepId: "s", url: page, fetchedAt: "t", creditsUsed: 1, document: doc(page, "v3") }, snapshot("v3"));
      // The store's insert waits for the other transaction's row.
      for (;;) {
        const waiting = await query<{ n: number }>(url, "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO snapshots%'");
        if (waiting[0]!.n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await other.query("COMMIT");
      await saved;
      expect(store.snapshots(page, null).map((s) => [s.version, s.fingerprint])).toEqual([[1, "v1"], [2, "v2"], [3, "v3"]]);
    } finally {
      await other.end();
      store.close();
    }
  });

  it("refuses a database from a newer version", async () => {
    const url = await freshDatabase();
    new PostgresStore(url).close();
    await query(url, "UPDATE scrapeline_schema SET version = 99");
    expect(() => new PostgresStore(url)).toThrow(/newer than this scrapeline understands/);
  });
});
