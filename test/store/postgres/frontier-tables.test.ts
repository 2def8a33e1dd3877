// The shared crawl frontier and per-host politeness on PostgreSQL, through two stores (two
// processes' connections) on one database.
import { describe, expect, it } from "vitest";
import { PostgresStore, type FrontierPage } from "../../../src/store/index.js";
import { MAX_PAGE_CLAIMS } from "../../../src/store/postgres/frontier-tables.js";
import { freshDatabase, postgresMissing } from "../../helpers/postgres.js";

const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL tests skipped: ${missing}`);

const page = (n: number, linksOnly = false): FrontierPage => ({ key: `//e.com/${n}`, url: `https://e.com/${n}`, depth: 1, linksOnly });

/** Two stores on a new database with a running crawl job of `limit` pages led by "a". */
async function crawl(limit: number): Promise<{ one: PostgresStore; two: PostgresStore; close: () => void }> {
  const url = await freshDatabase();
  const one = new PostgresStore(url);
  const two = new PostgresStore(url);
  const tables = one.serveTables();
  const team = tables.createTeam({ name: "acme", planTokens: 1000, periodDays: 30, rateLimit: 100, maxConcurrentJobs: 5 });
  tables.createJob({ id: "job", teamId: team.id, kind: "crawl", url: "https://e.com/", total: null });
  const run = one.createRun({ pipelineName: "serve/crawl", pipelineFile: "serve", pipelineHash: "h", planJson: "{}", engine: "local" });
  tables.setJobRun("job", run.id);
  one.startStep(run.id, "request", "crawl");
  one.crawlFrontierTables().openCrawl({ jobId: "job", runId: run.id, stepId: "request", limit, holder: "a", leaseMs: 60_000 });
  return { one, two, close: () => (one.close(), two.close()) };
}

describe.skipIf(missing !== undefined)("the shared crawl frontier on PostgreSQL", () => {
  it("accepts each key once and no more pages than the limit, whoever adds them; linksOnly pages are not counted", async () => {
    const { one, two, close } = await crawl(5);
    try {
      const a = one.crawlFrontierTables();
      const b = two.crawlFrontierTables();
      a.addPages("job", [page(0, true), page(1), page(2), page(3)]);
      // Added without waiting: a call that waits for the answer makes sure they are in before b adds its own.
      a.runningCrawls();
      b.addPages("job", [page(2), page(3), page(4), page(5), page(6), page(7)]);
      b.runningCrawls();
      const claimed = a.claim("job", "a", 100, 60_000);
      expect(claimed.pages.map((p) => p.url)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `https://e.com/${n}`));
      expect(claimed.found).toBe(5);
      expect(claimed.pages[0]!.linksOnly).toBe(true);
    } finally {
      close();
    }
  });

  it("accepts at most maxQueryVariants keys with a query string of one path, whoever adds them", async () => {
    const { one, two, close } = await crawl(100);
    try {
      const a = one.crawlFrontierTables();
      const b = two.crawlFrontierTables();
      const day = (n: number): FrontierPage => ({ key: `//e.com/cal?d=${n}`, url: `https://e.com/cal?d=${n}`, depth: 1, linksOnly: false });
      // Each process's own rules let 3 variants through: the crawl takes 3 in all.
      a.addPages("job", [day(1), day(2), page(1)], { maxQueryVariants: 3 });
      a.runningCrawls();
      b.addPages("job", [day(2), day(3), day(4), day(5), page(2)], { maxQueryVariants: 3 });
      b.runningCrawls();
      // Without the option (no query-variant rule), variants are not counted.
      a.addPages("job", [day(6)]);
      const claimed = a.claim("job", "a", 100, 60_000);
      expect(claimed.pages.map((p) => p.url)).toEqual(["https://e.com/cal?d=1", "https://e.com/cal?d=2", "https://e.com/1", "https://e.com/cal?d=3", "https://e.com/2", "https://e.com/cal?d=6"]);
    } finally {
      close();
    }
  });

  it("hands each page to one process, gives a released page again, and a page whose lease ended to another process", async () => {
    const { one, two, close } = await crawl(100);
    try {
      const a = one.crawlFrontierTables();
      const b = two.crawlFrontierTables();
      a.addPages("job", [1, 2, 3, 4, 5].map((n) => page(n)));
      const first = a.claim("job", "a", 2, 60_000);
      const second = b.claim("job", "b", 2, 60_000);
      expect(first.pages.map((p) => p.key)).toEqual(["//e.com/1", "//e.com/2"]);
      expect(second.pages.map((p) => p.key)).toEqual(["//e.com/3", "//e.com/4"]);
      a.releasePages("job", "a", ["//e.com/2"]);
      a.finishPages("job", "a", ["//e.com/1"]);
      expect(b.claim("job", "b", 1, 60_000).pages.map((p) => p.key)).toEqual(["//e.com/2"]);
      // A claim with a 1 ms lease: once it ends, the page is anyone's.
      expect(b.claim("job", "b", 10, 1).pages.map((p) => p.key)).toEqual(["//e.com/5"]);
      let taken: string[] = [];
      while (taken.length === 0) taken = a.claim("job", "a", 10, 60_000).pages.map((p) => p.key);
      expect(taken).toEqual(["//e.com/5"]);
      expect(a.claim("job", "a", 10, 60_000)).toMatchObject({ pages: [], state: "running", open: 4 });
      a.finishPages("job", "a", taken);
      b.finishPages("job", "b", ["//e.com/2", "//e.com/3", "//e.com/4"]);
      b.runningCrawls();
      expect(a.claim("job", "a", 10, 60_000)).toMatchObject({ pages: [], open: 0 });
    } finally {
      close();
    }
  });

  it("gives a page up, recorded as a failure of the crawl's step, once MAX_PAGE_CLAIMS of its claims ended; a page given back does not count", async () => {
    expect(MAX_PAGE_CLAIMS).toBe(3);
    const { one, two, close } = await crawl(100);
    try {
      const a = one.crawlFrontierTables();
      const b = two.crawlFrontierTables();
      a.addPages("job", [page(1), page(2)]);
      a.finishPages("job", "a", a.claim("job", "a", 1, 60_000).pages.map((p) => p.key));
      /** The URLs `holder` claims once some page is free, or none once no page is left (given up). */
      const take = (tables: typeof a, holder: string, leaseMs: number) => {
        let claim = tables.claim("job", holder, 1, leaseMs);
        while (claim.pages.length === 0 && claim.open > 0) claim = tables.claim("job", holder, 1, leaseMs);
        return claim.pages.map((p) => p.url);
      };
      // Page 2 taken with a 1 ms lease: its process "dies" with it.
      expect(take(b, "gone-1", 1)).toEqual(["https://e.com/2"]);
      // Taken and given back (a graceful stop): not a claim that ended.
      expect(take(b, "stopping", 60_000)).toEqual(["https://e.com/2"]);
      b.releasePages("job", "stopping", ["//e.com/2"]);
      expect(take(b, "gone-2", 1)).toEqual(["https://e.com/2"]);
      // Two claims ended: the page is handed out again, and its third claim ends too.
      expect(take(a, "gone-3", 1)).toEqual(["https://e.com/2"]);
      expect(take(b, "b", 60_000)).toEqual([]);
      const runId = one.serveTables().job("job")!.runId!;
      expect(one.failures(runId)).toEqual([
        expect.objectContaining({ stepId: "request", url: "https://e.com/2", kind: "internal", error: "given up after its claims ended 3 times: the processes that took it stopped before finishing it" }),
      ]);
      expect(one.getSteps(runId).find((s) => s.stepId === "request")?.failures).toBe(1);
    } finally {
      close();
    }
  });

  it("stops handing out pages once the job is cancelled", async () => {
    const { one, two, close } = await crawl(100);
    try {
      one.crawlFrontierTables().addPages("job", [page(1)]);
      one.serveTables().finishJob("job", "cancelled");
      expect(two.crawlFrontierTables().claim("job", "b", 10, 60_000)).toMatchObject({ pages: [], state: "stopped" });
    } finally {
      close();
    }
  });

  it("counts a host's requests in flight across processes, and its spacing", async () => {
    const { one, two, close } = await crawl(100);
    try {
      const a = one.crawlFrontierTables();
      const b = two.crawlFrontierTables();
      const slot = a.takeHost("e.com", "a", 1, 0, 60_000);
      expect(slot).toHaveProperty("slot");
      expect(b.takeHost("e.com", "b", 1, 0, 60_000)).toHaveProperty("waitMs");
      a.releaseHost((slot as { slot: number }).slot);
      // Released without waiting: a call that waits makes sure it is in before b asks.
      a.runningCrawls();
      const spaced = b.takeHost("e.com", "b", 1, 3_600_000, 60_000);
      expect(spaced).toHaveProperty("slot");
      b.releaseHost((spaced as { slot: number }).slot);
      // Free, but not due for an hour.
      expect((a.takeHost("e.com", "a", 1, 0, 60_000) as { waitMs: number }).waitMs).toBeGreaterThan(3_000_000);
      b.pauseHost("other.com", 3_600_000);
      expect((a.takeHost("other.com", "a", 4, 0, 60_000) as { waitMs: number }).waitMs).toBeGreaterThan(3_000_000);
    } finally {
      close();
    }
  });
});
