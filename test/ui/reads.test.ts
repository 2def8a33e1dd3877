import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChangeTrackingResult } from "../../src/core/index.js";
import { UiData } from "../../src/app/ui-data/ui-data.js";
import { SqliteStore, SqliteUiReads } from "../../src/store/index.js";
import { workdir } from "../run/helpers.js";

/** A run of `pages` pages in one step, each with the change status `status(i)`. */
function storeRun(store: SqliteStore, pipeline: string, pages: number, status: (i: number) => ChangeTrackingResult["changeStatus"]): number {
  const run = store.createRun({ pipelineName: pipeline, pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
  store.startStep(run.id, "s", "scrape");
  for (let i = 0; i < pages; i++) {
    const url = `https://example.com/p/${String(i).padStart(3, "0")}`;
    store.saveDocument({ runId: run.id, stepId: "s", url, fetchedAt: new Date().toISOString(), creditsUsed: 1, document: { markdown: `page ${i}`, metadata: { sourceURL: url, url, statusCode: 200 }, changeTracking: { previousScrapeAt: null, changeStatus: status(i), visibility: "visible" } } });
  }
  store.finishStep(run.id, "s", "succeeded");
  store.finishRun(run.id, "succeeded");
  return run.id;
}

describe("the UI's reads", () => {
  it("pages runs newest first by id, filters by pipeline and by status as read (a dead running run is interrupted)", () => {
    const store = new SqliteStore(join(workdir(), "r.db"));
    try {
      const ids = Array.from({ length: 5 }, (_, i) => storeRun(store, i % 2 ? "odd" : "even", 1, () => "new"));
      const dead = store.createRun({ pipelineName: "even", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
      store.db.prepare("UPDATE runs SET owner_pid = 999999999 WHERE id = ?").run(dead.id);
      const reads = new SqliteUiReads(store.db);
      const first = reads.runs({ limit: 2 });
      expect(first.rows.map((r) => r.run.id)).toEqual([dead.id, ids[4]]);
      expect(first.more).toBe(true);
      const next = reads.runs({ limit: 10, before: ids[4] });
      expect(next.rows.map((r) => r.run.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
      expect(next.more).toBe(false);
      expect(reads.runs({ limit: 10, pipeline: "odd" }).rows.map((r) => r.run.id)).toEqual([ids[3], ids[1]]);
      expect(reads.runs({ limit: 10, status: "interrupted" }).rows.map((r) => r.run.id)).toEqual([dead.id]);
      expect(reads.runs({ limit: 10, status: "running" }).rows).toEqual([]);
      expect(reads.pipelines()).toEqual(["even", "odd"]);
    } finally {
      store.close();
    }
  });

  it("counts a run's changes from its steps' common result and the pages that differ from it", () => {
    const store = new SqliteStore(join(workdir(), "c.db"));
    try {
      const statuses = ["same", "same", "same", "changed", "new", "removed", "same"] as const;
      const id = storeRun(store, "p", statuses.length, (i) => statuses[i]!);
      // After compaction the common result is kept once and only the others have rows.
      expect(store.db.prepare("SELECT COUNT(*) FROM page_changes WHERE run_id = ?").pluck().get(id)).toBe(3);
      expect(new SqliteUiReads(store.db).runCounts(id)).toEqual({ documents: 7, failures: 0, changes: { same: 4, changed: 1, new: 1, removed: 1, hidden: 0 } });
    } finally {
      store.close();
    }
  });

  it("lists a run's changed pages in pages, whether they are the common result or the exceptions", () => {
    const db = join(workdir(), "l.db");
    const store = new SqliteStore(db);
    const allNew = storeRun(store, "p", 45, (i) => (i === 7 ? "same" : "new"));
    const fewChanged = storeRun(store, "p", 45, (i) => (i % 10 === 0 ? "changed" : "same"));
    store.close();
    const data = UiData.open(db);
    try {
      const first = data.changes(allNew, { offset: 0, limit: 20 })!;
      expect(first.total).toBe(44);
      expect(first.pages).toHaveLength(20);
      expect(first.pages[0]!.url).toBe("https://example.com/p/000");
      expect(data.changes(allNew, { offset: 40, limit: 20 })!.pages.map((p) => p.url)).toEqual(["https://example.com/p/041", "https://example.com/p/042", "https://example.com/p/043", "https://example.com/p/044"]);
      const changed = data.changes(fewChanged, { offset: 0, limit: 20 })!;
      expect(changed.pages.map((p) => p.url)).toEqual([0, 10, 20, 30, 40].map((i) => `https://example.com/p/0${String(i).padStart(2, "0")}`));
      expect(data.changes(fewChanged, { offset: 0, limit: 20, status: "new" })!.total).toBe(0);
      const pages = data.stepPages(fewChanged, "s", 10, 3);
      expect(pages).toEqual({ total: 45, pages: [expect.objectContaining({ url: "https://example.com/p/010", changeStatus: "changed" }), expect.objectContaining({ changeStatus: "same" }), expect.objectContaining({ changeStatus: "same" })] });
      expect(data.document(fewChanged, "s", "https://example.com/p/044")!.document.markdown).toBe("page 44");
      expect(data.document(fewChanged, "s", "https://example.com/p/999")).toBeUndefined();
      expect(data.changes(9999, { offset: 0, limit: 20 })).toBeUndefined();
    } finally {
      data.close();
    }
  });

  it("answers its list queries from indexes", () => {
    const store = new SqliteStore(join(workdir(), "i.db"));
    try {
      const plan = (sql: string) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join("; ");
      expect(plan("SELECT * FROM runs WHERE status = 'failed' AND id < 10 ORDER BY id DESC LIMIT 50")).toContain("runs_by_status");
      expect(plan("SELECT * FROM runs WHERE pipeline_name = 'p' ORDER BY id DESC LIMIT 50")).toContain("runs_by_pipeline");
      expect(plan("SELECT step_id, url FROM failures WHERE run_id = 1 ORDER BY id LIMIT 50 OFFSET 0")).toContain("failures_by_run");
      expect(plan("SELECT * FROM snapshots WHERE url = 'u' ORDER BY branch, version")).toMatch(/USING INDEX/);
    } finally {
      store.close();
    }
  });
});
