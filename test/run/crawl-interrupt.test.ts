import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliChild, finish, workdir } from "./helpers.js";

const PAGES = 30;
const site = new FixtureSite();
const path = (i: number) => (i === 0 ? "/" : `/p/${i}`);

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => res.writeHead(404).end());
  for (let i = 0; i < PAGES; i++) {
    // Each page links the next two and answers after a pause, so the crawl is still going when interrupted.
    const links = [i + 1, i + 2].filter((k) => k < PAGES).map((k) => `<a href="${path(k)}">page ${k}</a>`).join(" ");
    site.route(path(i), (_req, res) => {
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>page ${i}</p><p>${links}</p>`)), 80);
    });
  }
  await site.start();
});
afterAll(() => site.stop());

describe("SIGINT during a crawl, then --resume", () => {
  it("stores what was crawled, marks the step cancelled, and the resumed crawl fetches every page exactly once", async () => {
    const dir = workdir();
    const file = join(dir, "crawl.yaml");
    const db = join(dir, "crawl.db");
    writeFileSync(file, `version: 1\nname: slowcrawl\nconcurrency: 2\nperHostConcurrency: 2\nsteps:\n  - id: site\n    crawl: { url: "${site.url}/", sitemap: skip, limit: 100, scrapeOptions: { formats: [markdown] } }\n`);

    const first = cliChild(["run", file, "--db", db, "--allow-private-network"]);
    let sent = false;
    const interrupted = await finish(first, (err) => {
      if (!sent && (err.match(/ 200 http/g) ?? []).length >= 6) {
        sent = true;
        first.kill("SIGINT");
      }
    });
    expect(sent).toBe(true);
    expect(interrupted.code).toBe(130);
    expect(interrupted.err).toContain("stopping: waiting for pages in flight");
    expect(interrupted.out).toMatch(/site\s+cancelled/);

    const check = new Database(db, { readonly: true });
    expect(check.prepare("SELECT status FROM runs").pluck().get()).toBe("interrupted");
    expect(check.prepare("SELECT status FROM step_runs WHERE step_id = 'site'").pluck().get()).toBe("cancelled");
    check.close();
    const storedBefore = [...Array(PAGES).keys()].filter((i) => site.hits.get(path(i)) === 1).length;
    expect(storedBefore).toBeGreaterThanOrEqual(6);
    expect(storedBefore).toBeLessThan(PAGES);

    const shown = await finish(cliChild(["show", "--db", db]));
    expect(shown.out).toContain("interrupted");
    expect(shown.out).toMatch(/site\s+crawl\s+cancelled/);

    const resumed = await finish(cliChild(["run", file, "--db", db, "--allow-private-network", "--resume", "--json"]));
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.out);
    expect(summary.status).toBe("succeeded");
    expect(summary.steps).toEqual([expect.objectContaining({ id: "site", status: "succeeded", documents: PAGES, added: PAGES - storedBefore })]);

    const after = new Database(db, { readonly: true });
    expect(after.prepare("SELECT id, status FROM runs").all()).toEqual([{ id: 1, status: "succeeded" }]);
    expect(after.prepare("SELECT status, documents FROM step_runs WHERE step_id = 'site'").get()).toEqual({ status: "succeeded", documents: PAGES });
    after.close();
    const { SqliteStore } = await import("../../src/store/index.js");
    const store = new SqliteStore(db);
    const urls = [...store.documents(1, "site")].map((d) => d.url).sort();
    store.close();
    expect(urls).toEqual(Array.from({ length: PAGES }, (_, i) => `${site.url}${path(i)}`).sort());
    // In-flight pages finished before the first run stopped, so nothing was fetched twice.
    for (let i = 0; i < PAGES; i++) expect(site.hits.get(path(i)), path(i)).toBe(1);
  });
});

describe("kill -9 during a crawl, then --resume", () => {
  // With the page cache (the default) a stored page's links are read back; without it the page is fetched again for them.
  it.each([
    { cache: true, options: "formats: [markdown]" },
    { cache: false, options: "formats: [markdown], storeInCache: false" },
  ])("finds the pages only the killed run's stored pages linked to, and stores every page once (page cache: $cache)", async ({ cache, options }) => {
    const dir = workdir();
    const file = join(dir, "crawl.yaml");
    const db = join(dir, "crawl.db");
    // The site is shared with the tests above: count this test's fetches from here.
    const before = new Map([...Array(PAGES).keys()].map((i) => [i, site.hits.get(path(i)) ?? 0]));
    writeFileSync(file, `version: 1\nname: killedcrawl\nconcurrency: 2\nperHostConcurrency: 2\nsteps:\n  - id: site\n    crawl: { url: "${site.url}/", sitemap: skip, limit: 100, scrapeOptions: { ${options} } }\n`);

    const first = cliChild(["run", file, "--db", db, "--allow-private-network"]);
    let killed = false;
    await finish(first, (err) => {
      // Before the crawl's first saved frontier: only the stored pages know the links to the rest.
      if (!killed && (err.match(/ 200 http/g) ?? []).length >= 4) {
        killed = true;
        first.kill("SIGKILL");
      }
    });
    expect(killed).toBe(true);
    const fetched = () => [...Array(PAGES).keys()].map((i) => (site.hits.get(path(i)) ?? 0) - before.get(i)!);
    const storedBefore = fetched().filter((n) => n > 0).length;
    expect(storedBefore).toBeGreaterThanOrEqual(4);
    expect(storedBefore).toBeLessThan(PAGES);

    const resumed = await finish(cliChild(["run", file, "--db", db, "--allow-private-network", "--resume", "--json"]));
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out).status).toBe("succeeded");
    const after = new Database(db, { readonly: true });
    expect(after.prepare("SELECT status, documents FROM step_runs WHERE step_id = 'site'").get()).toEqual({ status: "succeeded", documents: PAGES });
    after.close();
    const counts = fetched();
    expect(counts.every((n) => n >= 1)).toBe(true);
    // With the cache, pages stored before the kill were not fetched again (at most the 2 in flight were);
    // without it, each of them was fetched once more for its links.
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(PAGES + 2 + (cache ? 0 : storedBefore));
    if (cache) expect(counts.filter((n) => n > 1).length).toBeLessThanOrEqual(2);
  });
});
