// The Store port (src/core/store.ts) as every store keeps it: the same assertions on SQLite and on PostgreSQL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Document, SnapshotWrite } from "../../src/core/index.js";
import { PostgresStore, SqliteStore } from "../../src/store/index.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";

type AnyStore = SqliteStore | PostgresStore;
interface Factory {
  name: string;
  /** Why this store's tests skip, when they do. */
  missing: string | undefined;
  /** A new, empty database; `open` opens a store on it (as often as asked). */
  fresh(): Promise<{ open(options?: { now?: () => Date }): AnyStore }>;
}

const dir = mkdtempSync(join(tmpdir(), "scrapeline-contract-"));
let n = 0;
const FACTORIES: Factory[] = [
  {
    name: "SqliteStore",
    missing: undefined,
    fresh: async () => {
      const path = join(dir, `db-${n++}`, "scrapeline.db");
      return { open: (options) => new SqliteStore(path, options) };
    },
  },
  {
    name: "PostgresStore",
    missing: postgresMissing(),
    fresh: async () => {
      const url = await freshDatabase();
      return { open: (options) => new PostgresStore(url, options) };
    },
  },
];
for (const f of FACTORIES) if (f.missing) console.warn(`${f.name} contract tests skipped: ${f.missing}`);

const doc = (url: string, markdown: string, statusCode = 200): Document => ({ markdown, metadata: { sourceURL: url, url, statusCode } });
const newRun = (store: AnyStore, name = "p") => store.createRun({ pipelineName: name, pipelineFile: `${name}.yaml`, pipelineHash: "h", planJson: "{}", engine: "local" });
const snapshot = (url: string, markdown: string): SnapshotWrite => ({ url, tag: null, markdown, fingerprint: `fp-${markdown}`, normalizerKey: "n1", statusCode: 200 });

describe.each(FACTORIES)("$name keeps the Store port", (factory) => {
  const test = it.skipIf(factory.missing !== undefined);

  test("stores documents with their credits, and reads them back after the step is compacted", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      expect(run).toMatchObject({ pipelineName: "p", pipelineFile: "p.yaml", status: "running", creditsUsed: 0, finishedAt: null, error: null });
      store.startStep(run.id, "s", "scrape");
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/b", fetchedAt: "2026-11-22T00:00:00.000Z", creditsUsed: 1, document: doc("https://e.com/b", "# B") });
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/a", fetchedAt: "2026-11-22T00:00:01.000Z", creditsUsed: 5, document: doc("https://e.com/a", "# A") });
      expect([...store.storedUrls(run.id, "s")].sort()).toEqual(["https://e.com/a", "https://e.com/b"]);
      // Before compaction the journal rows count.
      expect(store.getRun(run.id)!.creditsUsed).toBe(6);
      expect(store.getSteps(run.id)[0]).toMatchObject({ documents: 2, creditsUsed: 6 });
      store.finishStep(run.id, "s", "succeeded");
      const docs = [...store.documents(run.id, "s")];
      expect(docs.map((d) => [d.url, d.creditsUsed, d.document.markdown])).toEqual([
        ["https://e.com/a", 5, "# A"],
        ["https://e.com/b", 1, "# B"],
      ]);
      expect([...store.documents(run.id, undefined, new Set(["https://e.com/b"]))].map((d) => d.url)).toEqual(["https://e.com/b"]);
      expect(store.getRun(run.id)!.creditsUsed).toBe(6);
      expect(store.getSteps(run.id)[0]).toMatchObject({ stepId: "s", kind: "scrape", status: "succeeded", documents: 2, creditsUsed: 6 });
      store.finishRun(run.id, "succeeded");
      expect(store.getRun(run.id)).toMatchObject({ status: "succeeded", finishedAt: expect.any(String) });
      expect(store.latestUnfinishedRun("p")).toBeUndefined();
    } finally {
      store.close();
    }
  });

  test("a step skipped in a run's first attempt has its kind once a resume runs it", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      store.finishStep(run.id, "later", "skipped", "the run was interrupted");
      store.finishRun(run.id, "interrupted");
      store.reopenRun(run.id, ["p.yaml", "--db", "x"]);
      expect(store.getRun(run.id)).toMatchObject({ status: "running", resumeWords: ["p.yaml", "--db", "x"] });
      store.startStep(run.id, "later", "crawl");
      store.finishStep(run.id, "later", "succeeded");
      expect(store.getSteps(run.id)).toEqual([expect.objectContaining({ stepId: "later", kind: "crawl", status: "succeeded", startedAt: expect.any(String) })]);
    } finally {
      store.close();
    }
  });

  test("keeps a resumed step's earlier pages and state, and adds the new ones", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      store.startStep(run.id, "s", "scrape");
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/1", fetchedAt: "t", creditsUsed: 1, document: doc("https://e.com/1", "1") });
      store.saveStepState(run.id, "s", '{"frontier":["https://e.com/2"]}');
      store.finishStep(run.id, "s", "cancelled");
      store.finishRun(run.id, "interrupted", "stopped");
      expect(store.latestUnfinishedRun("p")).toMatchObject({ id: run.id, status: "interrupted", error: "stopped" });
      store.reopenRun(run.id);
      store.startStep(run.id, "s", "scrape");
      expect(store.stepState(run.id, "s")).toBe('{"frontier":["https://e.com/2"]}');
      expect([...store.storedUrls(run.id, "s")]).toEqual(["https://e.com/1"]);
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/2", fetchedAt: "t", creditsUsed: 1, document: doc("https://e.com/2", "2") });
      store.finishStep(run.id, "s", "succeeded");
      expect([...store.documents(run.id, "s")].map((d) => d.url)).toEqual(["https://e.com/1", "https://e.com/2"]);
      expect(store.getRun(run.id)!.creditsUsed).toBe(2);
    } finally {
      store.close();
    }
  });

  test("answers the page cache only within maxAge, with the links kept apart from the stored page", async () => {
    let now = Date.parse("2026-11-22T00:00:00Z");
    const store = (await factory.fresh()).open({ now: () => new Date(now) });
    try {
      expect(store.cacheHolds("k")).toBe(false);
      store.cachePut("https://e.com/", "k", doc("https://e.com/", "cached"));
      expect(store.cacheHolds("k")).toBe(true);
      expect(store.cacheHolds("other-options")).toBe(false);
      expect(store.cacheGet("https://e.com/", "k", 60_000)).toEqual({ document: doc("https://e.com/", "cached"), cachedAt: "2026-11-22T00:00:00.000Z" });
      expect(store.cacheGet("https://e.com/", "other-options", 60_000)).toBeUndefined();
      const run = newRun(store);
      store.startStep(run.id, "s", "crawl");
      const page: Document = { ...doc("https://e.com/a", "# A"), links: ["https://e.com/b", "https://e.com/c"] };
      const { links: _links, ...stored } = page;
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/a", fetchedAt: "t", creditsUsed: 1, document: stored }, undefined, { optionsKey: "k", document: page });
      expect(store.cacheGet("https://e.com/a", "k", 60_000)?.document).toEqual(page);
      expect([...store.documents(run.id, "s")].map((d) => d.document)).toEqual([stored]);
      now += 120_000;
      expect(store.cacheGet("https://e.com/", "k", 60_000)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  test("records failures, retries and credits without documents, and a step's result", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      store.startStep(run.id, "m", "map");
      store.saveFailure({ runId: run.id, stepId: "m", url: "https://e.com/x", kind: "network", error: "reset" });
      store.saveRetry(run.id, "m");
      store.recordCredits({ runId: run.id, stepId: "m", credits: 3, reason: "map" });
      store.saveStepResult(run.id, "m", '{"links":2}');
      store.finishStep(run.id, "m", "failed", "one page failed", { ok: false, results: [] } as never);
      expect(store.getSteps(run.id)[0]).toMatchObject({ failures: 1, retries: 1, creditsUsed: 3, status: "failed", error: "one page failed", expectations: { ok: false, results: [] } });
      expect(store.failures(run.id)).toEqual([{ stepId: "m", url: "https://e.com/x", kind: "network", error: "reset", failedAt: expect.any(String) }]);
      expect(store.stepResult(run.id, "m")).toBe('{"links":2}');
      expect(store.stepResult(run.id, "other")).toBeUndefined();
      expect(store.getRun(run.id)!.creditsUsed).toBe(3);
    } finally {
      store.close();
    }
  });

  test("lists runs newest first, by pipeline, and finds the previous run of a step with its plan", async () => {
    const store = (await factory.fresh()).open();
    try {
      const first = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: '{"v":1}', engine: "local" });
      store.startStep(first.id, "s", "scrape");
      store.finishStep(first.id, "s", "succeeded");
      store.finishRun(first.id, "succeeded");
      const other = newRun(store, "q");
      const second = newRun(store);
      expect(store.listRuns().map((r) => r.id)).toEqual([second.id, other.id, first.id]);
      expect(store.listRuns({ pipelineName: "p", limit: 1 }).map((r) => r.id)).toEqual([second.id]);
      expect(store.previousStepRun("p", "s", second.id)).toEqual({ runId: first.id, planJson: '{"v":1}' });
      expect(store.previousStepRun("p", "s", first.id)).toBeUndefined();
      expect(store.getRun(999)).toBeUndefined();
      store.addWarnings(second.id, [{ stepId: "s", url: null, message: "slow", at: "2026-11-22T00:00:00.000Z" }]);
      expect(store.warnings(second.id)).toEqual([{ stepId: "s", url: null, message: "slow", at: "2026-11-22T00:00:00.000Z" }]);
    } finally {
      store.close();
    }
  });

  test("keeps pages' histories by URL and tag, and each page's change result", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      store.startStep(run.id, "s", "scrape");
      const tracked = (markdown: string, status: "new" | "same" | "changed", url = "https://e.com/"): Document => ({ ...doc(url, markdown), changeTracking: { previousScrapeAt: null, changeStatus: status, visibility: "visible", ...(status === "changed" ? { diff: { text: "-a\n+b" } } : {}) } as never });
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/", fetchedAt: "t", creditsUsed: 1, document: tracked("a", "new") }, snapshot("https://e.com/", "a"));
      const first = store.latestSnapshot("https://e.com/", null)!;
      expect(first).toMatchObject({ url: "https://e.com/", tag: null, version: 1, firstRunId: run.id, lastRunId: run.id, firstSeenAt: run.startedAt });
      expect(store.snapshotMarkdown(first)).toBe("a");
      store.finishStep(run.id, "s", "succeeded");
      const next = newRun(store);
      store.startStep(next.id, "s", "scrape");
      store.saveDocument({ runId: next.id, stepId: "s", url: "https://e.com/", fetchedAt: "t", creditsUsed: 1, document: tracked("b", "changed") }, snapshot("https://e.com/", "b"));
      store.saveDocument({ runId: next.id, stepId: "s", url: "https://e.com/same", fetchedAt: "t", creditsUsed: 1, document: tracked("x", "same", "https://e.com/same") }, { ...snapshot("https://e.com/same", "x"), tag: "nightly" });
      store.finishStep(next.id, "s", "succeeded");
      expect(store.snapshots("https://e.com/", null).map((s) => [s.version, store.snapshotMarkdown(s)])).toEqual([
        [1, "a"],
        [2, "b"],
      ]);
      expect(store.snapshots("https://e.com/same", null)).toEqual([]);
      expect(store.snapshots("https://e.com/same", "nightly").map((s) => s.tag)).toEqual(["nightly"]);
      expect(store.snapshotUrls(null)).toEqual(["https://e.com/"]);
      expect(store.pageChanges(next.id)).toEqual([
        { stepId: "s", url: "https://e.com/", change: { previousScrapeAt: null, changeStatus: "changed", visibility: "visible", diff: { text: "-a\n+b" } } },
        { stepId: "s", url: "https://e.com/same", change: { previousScrapeAt: null, changeStatus: "same", visibility: "visible" } },
      ]);
      const page = [...store.documents(next.id, "s", new Set(["https://e.com/"]))][0]!;
      expect(page.document.changeTracking).toMatchObject({ changeStatus: "changed", diff: { text: "-a\n+b" } });
    } finally {
      store.close();
    }
  });

  test("keeps a screenshot's bytes apart and answers them by reference", async () => {
    const store = (await factory.fresh()).open();
    try {
      const run = newRun(store);
      store.startStep(run.id, "s", "scrape");
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255]);
      store.saveDocument({ runId: run.id, stepId: "s", url: "https://e.com/", fetchedAt: "t", creditsUsed: 1, document: { ...doc("https://e.com/", "s"), screenshot: `data:image/png;base64,${png.toString("base64")}` } });
      const ref = [...store.documents(run.id, "s")][0]!.document.screenshot!;
      expect(ref).toMatch(/^blob:sha256:[0-9a-f]{64};type=image\/png$/);
      const asset = store.asset(ref)!;
      expect(asset.mediaType).toBe("image/png");
      expect(Buffer.isBuffer(asset.bytes) && asset.bytes.equals(png)).toBe(true);
      expect(store.asset(`blob:sha256:${"0".repeat(64)};type=image/png`)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  test("two stores on one database both write and each reads the other's work", async () => {
    const db = await factory.fresh();
    const a = db.open();
    const b = db.open();
    try {
      const ra = newRun(a, "a");
      const rb = newRun(b, "b");
      a.startStep(ra.id, "s", "scrape");
      b.startStep(rb.id, "s", "scrape");
      const saves: Array<void | Promise<void>> = [];
      for (let i = 0; i < 20; i++) {
        saves.push(a.saveDocument({ runId: ra.id, stepId: "s", url: `https://a.com/${i}`, fetchedAt: "t", creditsUsed: 1, document: doc("u", `a${i}`) }));
        saves.push(b.saveDocument({ runId: rb.id, stepId: "s", url: `https://b.com/${i}`, fetchedAt: "t", creditsUsed: 1, document: doc("u", `same ${i % 2}`) }));
      }
      // A page counts as stored once its save has settled; then every store on the database sees it.
      await Promise.all(saves);
      expect(a.storedUrls(rb.id, "s").size).toBe(20);
      expect(b.storedUrls(ra.id, "s").size).toBe(20);
    } finally {
      a.close();
      b.close();
    }
  });
});
