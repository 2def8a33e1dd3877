import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliChild, finish, runYaml, workdir } from "./helpers.js";

/**
 * Every way a crawl stops — Ctrl-C, a second Ctrl-C, the step's timeoutMs, the budget — leaves what
 * was queued but not fetched queued for --resume, so the resumed run stores exactly what an
 * uninterrupted one does. The site is a tree (the start page links 5 sections of 7 pages each):
 * most pages are discovered long before they are fetched, and some only through pages that are.
 */
const SECTIONS = 5;
const PER_SECTION = 7;
const site = new FixtureSite();
const paths: string[] = ["/"];
for (let s = 1; s <= SECTIONS; s++) {
  paths.push(`/s/${s}`);
  for (let p = 1; p <= PER_SECTION; p++) paths.push(`/s/${s}/${p}`);
}
const ALL = paths.length; // 41

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => res.writeHead(404).end());
  for (const path of paths) {
    const depth = path === "/" ? 0 : path.split("/").length - 2;
    const children = depth === 0 ? Array.from({ length: SECTIONS }, (_, i) => `/s/${i + 1}`) : depth === 1 ? Array.from({ length: PER_SECTION }, (_, i) => `${path}/${i + 1}`) : [];
    const links = children.map((c) => `<a href="${c}">${c}</a>`).join(" ");
    site.route(path, (_req, res) => {
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${path}`, `<p>Page ${path}.</p><p>${links}</p>`)), 40);
    });
  }
  await site.start();
});
afterAll(() => site.stop());

const everyUrl = () => paths.map((p) => `${site.url}${p}`).sort();

function crawlYaml(name: string, extra = "", stepExtra = ""): string {
  return `version: 1\nname: ${name}\nconcurrency: 2\nperHostConcurrency: 2\n${extra}steps:\n  - id: site\n${stepExtra}    crawl: { url: "${site.url}/", sitemap: skip, limit: 100, scrapeOptions: { formats: [markdown] } }\n`;
}

/** The URLs run `runId` stored for the crawl, one entry per stored document. */
function storedUrls(db: string, runId = 1): string[] {
  const store = new SqliteStore(db);
  try {
    return [...store.documents(runId, "site")].map((d) => d.url).sort();
  } finally {
    store.close();
  }
}

const hitsNow = () => new Map(paths.map((p) => [p, site.hits.get(p) ?? 0]));
const fetchedSince = (before: Map<string, number>) => paths.map((p) => (site.hits.get(p) ?? 0) - before.get(p)!);

describe("Ctrl-C during a crawl, then --resume, stores what an uninterrupted crawl stores", () => {
  it("uninterrupted, the crawl stores every page of the site once", async () => {
    const dir = workdir();
    const file = join(dir, "crawl.yaml");
    const db = join(dir, "crawl.db");
    writeFileSync(file, crawlYaml("whole"));
    const run = await finish(cliChild(["run", file, "--db", db, "--allow-private-network"]));
    expect(run.code, run.err).toBe(0);
    expect(storedUrls(db)).toEqual(everyUrl());
  });

  it.each([
    { after: 2, signals: 1 },
    { after: 9, signals: 1 },
    { after: 25, signals: 1 },
    { after: 6, signals: 2 },
    { after: 20, signals: 2 },
  ])("stopped by $signals SIGINT(s) after $after stored pages", async ({ after, signals }) => {
    const dir = workdir();
    const file = join(dir, "crawl.yaml");
    const db = join(dir, "crawl.db");
    writeFileSync(file, crawlYaml("stopped"));
    const before = hitsNow();

    const first = cliChild(["run", file, "--db", db, "--allow-private-network"]);
    let sent = 0;
    const interrupted = await finish(first, (err) => {
      if (sent === 0 && (err.match(/ 200 http/g) ?? []).length >= after) {
        sent = 1;
        first.kill("SIGINT");
        if (signals === 2) setTimeout(() => first.kill("SIGINT"), 5);
      }
    });
    expect(sent).toBe(1);
    expect(interrupted.code, interrupted.err).toBe(130);
    const stored = storedUrls(db).length;
    expect(stored).toBeGreaterThanOrEqual(after);
    expect(stored).toBeLessThan(ALL);

    const resumed = await finish(cliChild(["run", file, "--db", db, "--allow-private-network", "--resume", "--json"]));
    expect(resumed.code, resumed.err).toBe(0);
    const summary = JSON.parse(resumed.out) as { status: string; steps: Array<{ id: string; status: string; documents: number; added: number; failed: number }> };
    expect(summary.status).toBe("succeeded");
    expect(summary.steps).toEqual([expect.objectContaining({ id: "site", status: "succeeded", documents: ALL, added: ALL - stored, failed: 0 })]);
    // Every page once: none lost, none stored twice.
    expect(storedUrls(db)).toEqual(everyUrl());
    const fetched = fetchedSince(before);
    expect(fetched.every((n) => n >= 1)).toBe(true);
    // One Ctrl-C lets the pages in flight finish, so no page is fetched twice; a second one aborts them (fetched again on resume).
    if (signals === 1) expect(fetched.every((n) => n === 1)).toBe(true);
    else expect(fetched.filter((n) => n > 1).length).toBeLessThanOrEqual(2);
  });
});

describe("the step's timeoutMs and the budget stop a crawl the same way", () => {
  it("a crawl stopped by its step's timeoutMs, resumed until it finishes, stores every page once", async () => {
    const yaml = crawlYaml("timed", "", "    timeoutMs: 400\n");
    const first = await runYaml(yaml);
    expect(first.result.ok && first.result.status).toBe("failed");
    const afterFirst = storedUrls(first.db).length;
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterFirst).toBeLessThan(ALL);
    let status: string | false = "failed";
    for (let tries = 0; tries < 30 && status !== "succeeded"; tries++) {
      const again = await runYaml(yaml, { db: first.db, resume: true });
      status = again.result.ok && again.result.status;
    }
    expect(status).toBe("succeeded");
    expect(storedUrls(first.db)).toEqual(everyUrl());
  });

  it("a crawl stopped by the budget keeps the rest queued; resumed with a larger budget it stores every page once", async () => {
    const yaml = crawlYaml("budgeted", "budget:\n  maxCredits: ${MAX_CREDITS}\n");
    const first = await runYaml(yaml, { env: { MAX_CREDITS: "12" } });
    expect(first.result.ok ? first.result.status : first.result.diagnostics).toBe("budget-exhausted");
    const stored = storedUrls(first.db);
    expect(stored.length).toBeLessThanOrEqual(12);
    expect(stored.length).toBeGreaterThan(0);
    // No page started after the budget said stop: only the pages it names as in flight were stored after it.
    expect(first.result.ok && first.result.credits).toBeLessThanOrEqual(12);
    const at = first.events.findIndex((e) => e.type === "budget-exhausted");
    const said = first.events[at];
    expect(said?.type === "budget-exhausted" && said.inFlight).toBeLessThanOrEqual(1);
    const storedAfter = first.events.slice(at).filter((e) => e.type === "document-stored").length;
    expect(storedAfter).toBe(said?.type === "budget-exhausted" ? said.inFlight : -1);

    const resumed = await runYaml(yaml, { db: first.db, resume: true, env: { MAX_CREDITS: "1000" } });
    expect(resumed.result.ok && resumed.result.status).toBe("succeeded");
    expect(storedUrls(first.db)).toEqual(everyUrl());
  });
});

describe("what --resume accepts", () => {
  it("a run recorded with the earlier hash of its pipeline (budget and per-host concurrency still in it), but not a changed pipeline", async () => {
    const { createHash } = await import("node:crypto");
    const Database = (await import("better-sqlite3")).default;
    const yaml = crawlYaml("upgraded", "budget:\n  maxCredits: 5\n");
    const first = await runYaml(yaml);
    expect(first.result.ok && first.result.status).toBe("budget-exhausted");
    const store = new SqliteStore(first.db);
    const planJson = store.runPlan(1)!;
    store.close();
    const db = new Database(first.db);
    // A plan of that time had no step positions (`at`) in it either.
    const earlier = createHash("sha256").update(JSON.stringify({ ...JSON.parse(planJson), concurrency: undefined }, (key, value) => (key === "at" ? undefined : value))).digest("hex");
    db.prepare("UPDATE runs SET pipeline_hash = ? WHERE id = 1").run(earlier);
    db.close();
    const resumed = await runYaml(yaml, { db: first.db, resume: true });
    expect(resumed.result.ok && resumed.result.status).toBe("budget-exhausted");

    const other = new Database(first.db);
    other.prepare("UPDATE runs SET pipeline_hash = 'not this pipeline' WHERE id = 1").run();
    other.close();
    await expect(runYaml(yaml, { db: first.db, resume: true })).rejects.toThrow(/the pipeline changed since run 1 started/);
  });
});
