// The web UI's reads as both stores answer them: the same assertions on SQLite and on PostgreSQL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChangeTrackingResult } from "../../src/core/index.js";
import { PostgresStore, SqliteStore } from "../../src/store/index.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";

type AnyStore = SqliteStore | PostgresStore;
const dir = mkdtempSync(join(tmpdir(), "scrapeline-ui-reads-"));
let n = 0;
const FACTORIES = [
  { name: "SqliteStore", missing: undefined as string | undefined, fresh: async (): Promise<AnyStore> => new SqliteStore(join(dir, `db-${n++}`, "s.db")) },
  { name: "PostgresStore", missing: postgresMissing(), fresh: async (): Promise<AnyStore> => new PostgresStore(await freshDatabase()) },
];

/** A run of one step whose pages have the change statuses given, finished (compacted) unless `open`. */
async function storeRun(store: AnyStore, pipeline: string, statuses: ReadonlyArray<ChangeTrackingResult["changeStatus"]>, open = false): Promise<number> {
  const run = store.createRun({ pipelineName: pipeline, pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
  store.startStep(run.id, "s", "scrape");
  for (const [i, status] of statuses.entries()) {
    const url = `https://example.com/p/${String(statuses.length - i).padStart(3, "0")}`;
    await store.saveDocument({ runId: run.id, stepId: "s", url, fetchedAt: "2026-11-22T00:00:00.000Z", creditsUsed: 1, document: { markdown: `page ${i}`, metadata: { sourceURL: url, url, statusCode: 200 }, changeTracking: { previousScrapeAt: null, changeStatus: status, visibility: "visible" } } });
  }
  if (!open) {
    store.finishStep(run.id, "s", "succeeded");
    store.finishRun(run.id, "succeeded");
  }
  return run.id;
}

describe.each(FACTORIES)("$name answers the web UI's reads", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("runs paged newest first, filtered, counted; a step's pages sorted, one page with its change result", async () => {
    const store = await factory.fresh();
    try {
      const a = await storeRun(store, "even", ["same", "same", "changed", "new", "removed"]);
      const b = await storeRun(store, "odd", ["new"]);
      const c = await storeRun(store, "even", ["new", "same"], true);
      store.saveFailure({ runId: a, stepId: "s", url: "https://example.com/x", error: "boom", kind: "http" });
      store.saveFailure({ runId: a, stepId: "s", url: "https://example.com/y", error: "bust", kind: "http" });
      store.recordCredits({ runId: a, stepId: "s", credits: 2, reason: "json" });
      const reads = store.uiReads();
      const first = reads.runs({ limit: 2 });
      expect(first.rows.map((r) => r.run.id)).toEqual([c, b]);
      expect(first.more).toBe(true);
      expect(reads.runs({ limit: 2, before: b })).toMatchObject({ rows: [{ run: { id: a } }], more: false });
      expect(reads.runs({ limit: 5, pipeline: "even" }).rows.map((r) => r.run.id)).toEqual([c, a]);
      expect(reads.runs({ limit: 5, status: "running" }).rows.map((r) => r.run.id)).toEqual([c]);
      expect(reads.pipelines()).toEqual(["even", "odd"]);
      expect(reads.runCounts(a)).toEqual({ documents: 5, failures: 2, changes: { same: 2, changed: 1, new: 1, removed: 1, hidden: 0 } });
      // Pages not compacted yet count too.
      expect(reads.runCounts(c)).toMatchObject({ documents: 2, changes: { new: 1, same: 1 } });

      const entries = reads.stepEntries(a, "s");
      expect(entries.map((e) => e.url)).toEqual(["001", "002", "003", "004", "005"].map((p) => `https://example.com/p/${p}`));
      expect(entries[0]).toMatchObject({ statusCode: 200, credits: 1 });
      const page = reads.document(a, "s", "https://example.com/p/003")!;
      expect(page.document.markdown).toBe("page 2");
      expect(page.document.changeTracking).toMatchObject({ changeStatus: "changed" });
      expect(reads.document(a, "s", "https://example.com/p/999")).toBeUndefined();
      const changes = reads.stepChanges(a, "s");
      expect(changes.rows instanceof Map).toBe(true);
      expect(reads.change(changes.rows.get("https://example.com/p/003") ?? changes.base!)).toMatchObject({ changeStatus: "changed" });
      expect(reads.stepIds(a)).toEqual(["s"]);

      const failures = reads.failures(a, 1, 5);
      expect(failures.total).toBe(2);
      expect(failures.rows.map((f) => f.url)).toEqual(["https://example.com/y"]);
      expect(reads.creditReasons(a).find((r) => r.reason === "json")).toEqual({ stepId: "s", reason: "json", credits: 2 });
      expect(reads.series("even", 5).map((r) => r.run.id)).toEqual([a, c]);
    } finally {
      store.close();
    }
  });

  test("a team sees the runs of its own jobs and monitors' checks only", async () => {
    const store = await factory.fresh();
    try {
      const mine = await storeRun(store, "mine", ["new"]);
      const checked = await storeRun(store, "checked", ["new"]);
      const theirs = await storeRun(store, "theirs", ["new"]);
      const tables = store.serveTables();
      const acme = tables.createTeam({ name: "acme", planTokens: 1, periodDays: 30, rateLimit: 1, maxConcurrentJobs: 1 });
      const other = tables.createTeam({ name: "other", planTokens: 1, periodDays: 30, rateLimit: 1, maxConcurrentJobs: 1 });
      tables.createJob({ id: "j1", teamId: acme.id, kind: "scrape", url: null, total: null });
      tables.setJobRun("j1", mine);
      tables.createJob({ id: "j2", teamId: other.id, kind: "scrape", url: null, total: null });
      tables.setJobRun("j2", theirs);
      const monitors = store.monitorTables();
      const m = monitors.upsert({ key: "api:1", source: "api", teamId: acme.id, name: "m", schedule: { every: "1h" } as never });
      monitors.setCheckRun(monitors.claim(m.id, "slot", { trigger: "manual", status: "running" })!.id, checked);
      const reads = store.uiReads();
      expect(reads.pipelines({ teamId: acme.id })).toEqual(["checked", "mine"]);
      expect(reads.runs({ limit: 10 }, { teamId: acme.id }).rows.map((r) => r.run.id)).toEqual([checked, mine]);
      expect(reads.runVisible(theirs, { teamId: acme.id })).toBe(false);
      expect(reads.runVisible(theirs, {})).toBe(true);
      expect(reads.runVisible(mine, { teamId: acme.id })).toBe(true);
    } finally {
      store.close();
    }
  });
});
