import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRun, planFile } from "../../src/app/index.js";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const searx = new FakeSearxng({ perPage: 10 });
let env: Record<string, string>;

beforeAll(async () => {
  for (let i = 1; i <= 12; i++) site.page(`/r${i}`, htmlPage(`Result page ${i}`, `<p>Body of result ${i}.</p>`));
  await site.start();
  await searx.start();
  searx.options.results = { general: webResults(site.url, 12), news: [{ url: `${site.url}/r5`, title: "News five", content: "Five in the news", publishedDate: "2026-11-24T10:00:00" }] };
  env = { SCRAPELINE_SEARXNG_URL: searx.url };
});
afterAll(async () => {
  await site.stop();
  await searx.stop();
});

/** Runs a pipeline that must load; its result narrowed to the run's. */
async function runOk(yaml: string, options: Parameters<typeof runYaml>[1]) {
  const run = await runYaml(yaml, options);
  if (!run.result.ok) throw new Error(JSON.stringify(run.result.diagnostics));
  return { ...run, result: run.result };
}

const searchStep = (body: string, id = "find") => `  - id: ${id}\n    search:\n${body.replace(/^/gm, "      ")}\n`;

function stepResult(db: string, runId: number, stepId = "find") {
  const store = new SqliteStore(db);
  try {
    const raw = store.stepResult(runId, stepId);
    return raw === undefined ? undefined : JSON.parse(raw);
  } finally {
    store.close();
  }
}

function stepCredits(db: string, runId: number, stepId = "find"): number | undefined {
  const store = new SqliteStore(db);
  try {
    return store.getSteps(runId).find((s) => s.stepId === stepId)?.creditsUsed;
  } finally {
    store.close();
  }
}

describe("search steps on the local engine", () => {
  it("stores the results as the service answers them, billed 2 per started 10, without scraping them", async () => {
    const { result, db } = await runOk(pipeline(searchStep(`query: llama farming\nlimit: 12\nsources: [web, {type: news}]`)), { env });
    expect(result.status).toBe("succeeded");
    const stored = stepResult(db, result.runId);
    expect(stored.success).toBe(true);
    expect(stored.data.web).toHaveLength(12);
    expect(stored.data.web[0]).toEqual({ url: `${site.url}/r1`, title: "Result 1", description: "About result 1", position: 1 });
    expect(stored.data.news).toEqual([{ title: "News five", url: `${site.url}/r5`, snippet: "Five in the news", date: "2026-11-24T10:00:00", position: 1 }]);
    expect(stored.creditsUsed).toBe(4); // 13 results: two started tens
    expect(result.credits).toBe(4);
    expect(stepCredits(db, result.runId)).toBe(4);
    expect(readDocuments(db, result.runId, "find")).toHaveLength(0);
  });

  it("scrapes each result when scrapeOptions asks for formats, each a stored document billed as a scrape", async () => {
    const { result, db } = await runOk(pipeline(searchStep(`query: llama farming\nlimit: 3\nscrapeOptions: { formats: [markdown] }`)), { env });
    expect(result.status).toBe("succeeded");
    const documents = readDocuments(db, result.runId, "find");
    expect(documents.map((d) => d.url).sort()).toEqual([1, 2, 3].map((i) => `${site.url}/r${i}`));
    expect(documents[0]!.document.markdown).toMatch(/Body of result \d/);
    expect(result.credits).toBe(2 + 3);
    expect(stepResult(db, result.runId).creditsUsed).toBe(5);
  });

  it("feeds a later step with urls.from, in result order, with its include/limit", async () => {
    const steps = searchStep("query: llama farming\nlimit: 8") + `  - id: pages\n    scrape:\n      urls: { from: find, exclude: ["**/r1"], limit: 2 }\n      formats: [markdown]\n`;
    const { result, db } = await runOk(pipeline(steps), { env });
    expect(result.status).toBe("succeeded");
    expect(readDocuments(db, result.runId, "pages").map((d) => d.url).sort()).toEqual([`${site.url}/r2`, `${site.url}/r3`]);
  });

  it("fails the step with the variable to set when no SearXNG is configured", async () => {
    const { result, events } = await runOk(pipeline(searchStep("query: llama farming")), { env: {} });
    expect(result.status).toBe("failed");
    const finished = events.find((e) => e.type === "step-finished" && e.stepId === "find");
    expect(finished).toMatchObject({ status: "failed", error: expect.stringMatching(/SCRAPELINE_SEARXNG_URL.*docker run/) });
  });

  it("reports engines that did not answer as a step warning, stored with the result", async () => {
    const failing = await new FakeSearxng({ results: { general: webResults(site.url, 2) }, failing: [["google", "CAPTCHA"]] }).start();
    try {
      const { result, events, db } = await runOk(pipeline(searchStep("query: llamas")), { env: { SCRAPELINE_SEARXNG_URL: failing.url } });
      expect(result.status).toBe("succeeded");
      expect(events).toContainEqual({ type: "step-warning", stepId: "find", message: "some of SearXNG's search engines did not answer: google (CAPTCHA)" });
      expect(stepResult(db, result.runId).warning).toContain("google (CAPTCHA)");
    } finally {
      await failing.stop();
    }
  });

  it("tries the search again when SearXNG answers a 5xx, and fails on a 403 at once", async () => {
    const flaky = await new FakeSearxng({ results: { general: webResults(site.url, 2) }, failFirst: 1 }).start();
    const closed = await new FakeSearxng({ jsonDisabled: true }).start();
    try {
      const ok = await runOk(pipeline(searchStep("query: llamas")), { env: { SCRAPELINE_SEARXNG_URL: flaky.url } });
      expect(ok.result.status).toBe("succeeded");
      expect(ok.events).toContainEqual(expect.objectContaining({ type: "document-retried", stepId: "find", attempt: 2, reason: expect.stringContaining("HTTP 502") }));
      expect(stepResult(ok.db, ok.result.runId).data.web).toHaveLength(2);
      const refused = await runOk(pipeline(searchStep("query: llamas")), { env: { SCRAPELINE_SEARXNG_URL: closed.url } });
      expect(refused.result.status).toBe("failed");
      expect(closed.requests).toHaveLength(1);
      expect(refused.events.find((e) => e.type === "step-finished")).toMatchObject({ error: expect.stringContaining("search.formats") });
    } finally {
      await flaky.stop();
      await closed.stop();
    }
  });

  it("reports results new and gone since the last run of the same query (a query monitor)", async () => {
    const db = join(workdir(), "monitor.db");
    const monitor = await new FakeSearxng({ results: { general: webResults(site.url, 3) } }).start();
    try {
      const yaml = pipeline(searchStep("query: llama news"));
      const first = await runOk(yaml, { env: { SCRAPELINE_SEARXNG_URL: monitor.url }, db });
      expect(stepResult(db, first.result.runId).changes).toMatchObject({ previousRunId: null, removed: [] });
      expect(stepResult(db, first.result.runId).changes.added).toHaveLength(3);
      monitor.options.results = { general: [...webResults(site.url, 3).slice(1), { url: `${site.url}/r9`, title: "Fresh", content: "new" }] };
      const second = await runOk(yaml, { env: { SCRAPELINE_SEARXNG_URL: monitor.url }, db });
      expect(stepResult(db, second.result.runId).changes).toEqual({
        previousRunId: first.result.runId,
        added: [{ source: "web", url: `${site.url}/r9`, title: "Fresh" }],
        removed: [{ source: "web", url: `${site.url}/r1`, title: "Result 1" }],
      });
    } finally {
      await monitor.stop();
    }
  });

  it("export --step writes the results: json as stored, jsonl and csv one row per result", async () => {
    const { result, db } = await runOk(pipeline(searchStep("query: llama farming\nlimit: 2\nsources: [web, news]")), { env });
    const dir = workdir();
    await exportRun({ db, run: result.runId, step: "find", format: "json", out: join(dir, "r.json") });
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).data.web).toHaveLength(2);
    const { count } = await exportRun({ db, run: result.runId, step: "find", format: "jsonl", out: join(dir, "r.jsonl") });
    expect(count).toBe(3);
    const rows = readFileSync(join(dir, "r.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.source, r.position])).toEqual([["web", 1], ["web", 2], ["news", 1]]);
    await exportRun({ db, run: result.runId, step: "find", format: "csv", out: join(dir, "r.csv") });
    const csv = readFileSync(join(dir, "r.csv"), "utf8").split("\r\n");
    expect(csv[0]).toBe("source,url,title,description,position,snippet,date");
    expect(csv[1]).toBe(`web,${site.url}/r1,Result 1,About result 1,1,,`);
  });
});

describe("search steps: plan and validation", () => {
  it("plan estimates 2 per started 10 results of each source, plus each scraped result as a page", async () => {
    const dir = workdir();
    const file = join(dir, "p.yaml");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, pipeline(searchStep("query: a\nlimit: 25\nsources: [web, news]") + searchStep("query: b\nscrapeOptions: { formats: [markdown] }", "scraped")));
    const report = await planFile(file, { env: {} });
    const [plain, scraped] = report.plan!.steps;
    expect(plain!.estimate).toMatchObject({ credits: 10, exact: false });
    expect(plain!.estimate.note).toContain("50 result(s)");
    expect(scraped!.estimate).toMatchObject({ credits: 2 + 10, exact: false });
  });

  it("rejects includeDomains with excludeDomains, and a limit over 100, at their line and column", () => {
    const text = pipeline(searchStep("query: a\nlimit: 101\nincludeDomains: [a.com]\nexcludeDomains: [b.com]"));
    const loaded = loadPipelineText("p.yaml", text, { env: {} });
    expect(loaded.pipeline).toBeUndefined();
    const byCode = Object.fromEntries(loaded.diagnostics.map((d) => [d.code, d]));
    expect(byCode["conflicting-keys"]).toMatchObject({ line: 10, column: 7, message: expect.stringContaining('includeDomains and excludeDomains are both set in search step "find"') });
    const limit = loaded.diagnostics.find((d) => d.line === 8)!;
    expect(limit).toMatchObject({ severity: "error", column: 14 });
    expect(limit.message).toMatch(/100/);
  });

  it("normalizes sources and categories to one form and scrapes only when formats are asked", () => {
    const text = pipeline(searchStep("query: a\nsources: [news, {type: web, tbs: 'qdr:d'}]\ncategories: [github, {type: pdf}]\nscrapeOptions: { onlyMainContent: false }"));
    const loaded = loadPipelineText("p.yaml", text, { env: {} });
    const step = loaded.pipeline!.steps[0]!;
    expect(step).toMatchObject({ kind: "search", body: { query: "a", limit: 10, timeout: 60000, ignoreInvalidURLs: false, sources: [{ type: "news" }, { type: "web", tbs: "qdr:d" }], categories: ["github", "pdf"] } });
    expect((step.body as { scrapeOptions?: unknown }).scrapeOptions).toBeUndefined();
    expect(loaded.diagnostics).toContainEqual(expect.objectContaining({ code: "search-not-scraped", severity: "warning" }));
  });
});

describe("search steps: budget and resume", () => {
  it("stops at the budget while scraping results, and a resumed run scrapes the rest without searching again", async () => {
    const db = join(workdir(), "resume.db");
    const own = await new FakeSearxng({ results: { general: webResults(site.url, 3) } }).start();
    try {
      const body = `query: llama farming\nlimit: 3\nscrapeOptions: { formats: [markdown] }`;
      const first = await runOk(pipeline(searchStep(body), "budget: { maxCredits: 3 }\nconcurrency: 1\n"), { env: { SCRAPELINE_SEARXNG_URL: own.url }, db });
      expect(first.result.status).toBe("budget-exhausted");
      expect(readDocuments(db, first.result.runId, "find")).toHaveLength(1);
      expect(own.requests).toHaveLength(1);

      const resumed = await runOk(pipeline(searchStep(body), "concurrency: 1\n"), { env: { SCRAPELINE_SEARXNG_URL: own.url }, db, resume: true });
      expect(resumed.result.status).toBe("succeeded");
      expect(resumed.result.runId).toBe(first.result.runId);
      expect(own.requests).toHaveLength(1);
      expect(readDocuments(db, first.result.runId, "find").map((d) => d.url).sort()).toEqual([1, 2, 3].map((i) => `${site.url}/r${i}`));
      expect(resumed.result.credits).toBe(2 + 3);
      expect(stepResult(db, first.result.runId).creditsUsed).toBe(5);
    } finally {
      await own.stop();
    }
  });
});
