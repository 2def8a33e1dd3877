import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { SqliteStore } from "../../src/store/index.js";
import { pipeline, readDocuments, runYaml } from "./helpers.js";

const DOCS = 30;
const site = new FixtureSite();

const links = (paths: string[]) => `<ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join("")}</ul>`;

beforeAll(async () => {
  site
    .route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /docs/private\n"))
    .page("/", htmlPage("Home", links(["/docs/", "/blog/"])))
    .page("/docs/", htmlPage("Docs", links(["/docs/1", "/docs/private/keys", "/blog/x", "https://elsewhere.example/"])))
    .page("/docs/private/keys", htmlPage("Keys", "<p>secret</p>"))
    .page("/blog/", htmlPage("Blog", "<p>blog</p>"))
    .page("/blog/x", htmlPage("Blog X", "<p>x</p>"));
  // A chain of docs pages, each linking the next and back to the index.
  for (let i = 1; i <= DOCS; i++) site.page(`/docs/${i}`, htmlPage(`Doc ${i}`, `<p>doc ${i}</p>${links(i < DOCS ? [`/docs/${i + 1}`, "/docs/"] : ["/docs/"])}`));
  // An infinite calendar: every month links the next one.
  site.route("/cal/", (req, res) => {
    const month = Number(new URL(req.url ?? "/", "http://x").searchParams.get("m") ?? 0);
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Month ${month}`, links([`/cal/?m=${month + 1}`, `/cal/?m=${month - 1}`])));
  });
  // A page that fails with 500 every other request.
  site.route("/flaky/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Flaky index", links(["/flaky/a"]))));
  site.route("/flaky/a", (_req, res, n) => (n % 2 === 1 ? res.writeHead(500).end("oops") : res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Flaky A", "<p>there</p>"))));
  await site.start();
});
afterAll(() => site.stop());

const crawl = (body: string) => `  - id: site\n    crawl: { ${body} }\n`;

describe("crawl steps on the local engine", () => {
  it("crawls under the start path, skips what robots.txt disallows and reports it", async () => {
    const { result, db, events } = await runYaml(pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip`)));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const urls = readDocuments(db, result.runId, "site").map((d) => d.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.sort()).toEqual([`${site.url}/docs/`, ...Array.from({ length: DOCS }, (_, i) => `${site.url}/docs/${i + 1}`)].sort());
    expect(site.hits.get("/docs/private/keys")).toBeUndefined();
    expect(result.credits).toBe(DOCS + 1);
    const finished = events.find((e) => e.type === "step-finished");
    expect(finished).toMatchObject({ status: "succeeded", documents: DOCS + 1, crawl: { found: DOCS + 1, skippedByRobots: 1 } });
    if (finished?.type !== "step-finished") throw new Error("no step-finished");
    expect(finished.crawl!.skippedByRules).toBeGreaterThanOrEqual(2); // /blog/x and the external link
    const warning = events.find((e) => e.type === "step-warning");
    expect(warning).toMatchObject({ message: expect.stringContaining("/docs/private/keys") });
  });

  it("follows the links of a start page its includePaths refuse, without storing or billing it; limit counts the pages that match", async () => {
    const { result, db } = await runYaml(pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip, includePaths: ["^/docs/[0-9]+$"], limit: 3`)));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const urls = readDocuments(db, result.runId, "site").map((d) => d.url);
    expect(urls).toEqual([`${site.url}/docs/1`, `${site.url}/docs/2`, `${site.url}/docs/3`]);
    expect(result.credits).toBe(3);
  });

  it("stores only the formats asked for, though it reads links to discover pages", async () => {
    const { result, db } = await runYaml(pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip, limit: 3, scrapeOptions: { formats: [markdown] }`)));
    if (!result.ok) throw new Error("invalid");
    const docs = readDocuments(db, result.runId, "site");
    expect(docs).toHaveLength(3);
    for (const d of docs) {
      expect(d.document.links).toBeUndefined();
      expect(d.document.markdown).toMatch(/Doc|Docs/);
    }
  });

  it("stops at maxDiscoveryDepth and at limit", async () => {
    const deep = await runYaml(pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip, maxDiscoveryDepth: 2`)));
    if (!deep.result.ok) throw new Error("invalid");
    expect(readDocuments(deep.db, deep.result.runId, "site").map((d) => d.url).sort()).toEqual([`${site.url}/docs/`, `${site.url}/docs/1`, `${site.url}/docs/2`]);
    const limited = await runYaml(pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip, limit: 5`)));
    if (!limited.result.ok) throw new Error("invalid");
    expect(readDocuments(limited.db, limited.result.runId, "site")).toHaveLength(5);
    // The progress bar's figures: found grows up to the limit, and the last report has every found page done.
    const progress = limited.events.flatMap((e) => (e.type === "step-progress" ? [e] : []));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((e) => e.limit === 5 && e.found <= 5 && e.done <= e.found)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ found: 5, done: 5 });
  });

  it("crawls the whole domain with crawlEntireDomain and keeps to includePaths", async () => {
    const { result, db } = await runYaml(pipeline(crawl(`url: "${site.url}/", sitemap: skip, crawlEntireDomain: true, includePaths: ["^/blog"]`)));
    if (!result.ok) throw new Error("invalid");
    // The start URL is fetched for its links but, failing includePaths, is not a page of the crawl; /docs/ is not followed.
    expect(readDocuments(db, result.runId, "site").map((d) => d.url)).toEqual([`${site.url}/blog/`]);
  });

  it("survives an infinite calendar: query variants of one path are capped", async () => {
    const { result, db, events } = await runYaml(pipeline(crawl(`url: "${site.url}/cal/", sitemap: skip`)));
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const stored = readDocuments(db, result.runId, "site").length;
    expect(stored).toBeGreaterThan(1);
    expect(stored).toBeLessThanOrEqual(12);
    const finished = events.find((e) => e.type === "step-finished");
    expect(finished?.type === "step-finished" && finished.crawl!.skippedByRules).toBeGreaterThan(0);
  });

  it("survives a link farm: the frontier never holds more than the limit", async () => {
    site.route("/farm/", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Farm", Array.from({ length: 100_000 }, (_, i) => `<a href="/farm/${i}">${i}</a>`).join("")));
    });
    for (let i = 0; i < 25; i++) site.page(`/farm/${i}`, htmlPage(`Farm ${i}`, "<p>leaf</p>"));
    const { result, db, events } = await runYaml(pipeline(crawl(`url: "${site.url}/farm/", sitemap: skip, limit: 20`)));
    if (!result.ok) throw new Error("invalid");
    expect(readDocuments(db, result.runId, "site")).toHaveLength(20);
    const finished = events.find((e) => e.type === "step-finished");
    expect(finished).toMatchObject({ crawl: { found: 20 } });
    expect(site.hits.get("/farm/30")).toBeUndefined();
  });

  it("retries pages that fail with 500 intermittently", async () => {
    const { result, db, events } = await runYaml(pipeline(crawl(`url: "${site.url}/flaky/", sitemap: skip`)));
    if (!result.ok) throw new Error("invalid");
    expect(readDocuments(db, result.runId, "site").map((d) => d.url).sort()).toEqual([`${site.url}/flaky/`, `${site.url}/flaky/a`]);
    expect(events.some((e) => e.type === "document-retried" && e.url.endsWith("/flaky/a"))).toBe(true);
  });
});

describe("map steps and URL flows", () => {
  it("maps a site and feeds its links to a scrape step through urls.from", async () => {
    const yaml = pipeline(`  - id: sitemap\n    map: { url: "${site.url}/docs/", sitemap: skip }\n  - id: pages\n    scrape:\n      urls: { from: sitemap, include: ["/docs/[0-9]"], limit: 3 }\n`);
    const { result, db } = await runYaml(yaml);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const map = readDocuments(db, result.runId, "sitemap");
    expect(map).toHaveLength(1);
    // The map walks the chain of docs pages, so it lists pages many clicks deep.
    expect(map[0]!.document.links).toEqual(expect.arrayContaining([`${site.url}/docs/1`, `${site.url}/docs/${DOCS}`]));
    expect(map[0]!.document.metadata.creditsUsed).toBe(1);
    const pages = readDocuments(db, result.runId, "pages").map((d) => d.url);
    expect(pages).toEqual([`${site.url}/docs/1`, `${site.url}/docs/2`, `${site.url}/docs/3`]);
    expect(result.credits).toBe(4);
  });

  it("feeds a crawl's pages to a later step", async () => {
    const yaml = pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip, limit: 4`) + `  - id: again\n    scrape:\n      urls: { from: site, exclude: ["/docs/"] }\n`);
    const { result, db } = await runYaml(yaml);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const crawled = readDocuments(db, result.runId, "site").map((d) => d.url).filter((u) => u !== `${site.url}/docs/`);
    expect(readDocuments(db, result.runId, "again").map((d) => d.url).sort()).toEqual(crawled.sort());
  });
});

describe("stopping a crawl and resuming it", () => {
  it("stores what was crawled, marks the step cancelled, and --resume continues the frontier", async () => {
    const stop = new AbortController();
    let stored = 0;
    const yaml = pipeline(crawl(`url: "${site.url}/docs/", sitemap: skip`), "concurrency: 1\n");
    const first = await runYaml(yaml, {
      stop: stop.signal,
      onEvent: (e) => {
        if (e.type === "document-stored" && ++stored === 7) stop.abort();
      },
    });
    if (!first.result.ok) throw new Error("invalid");
    expect(first.result.status).not.toBe("succeeded");
    const before = readDocuments(first.db, first.result.runId, "site").map((d) => d.url);
    expect(before.length).toBeGreaterThanOrEqual(7);
    expect(before.length).toBeLessThan(DOCS + 1);
    const store = new SqliteStore(first.db);
    expect(store.getSteps(first.result.runId).find((s) => s.stepId === "site")?.status).toBe("cancelled");
    store.close();

    const second = await runYaml(yaml, { db: first.db, resume: true });
    if (!second.result.ok) throw new Error("invalid");
    expect(second.result.runId).toBe(first.result.runId);
    expect(second.result.status).toBe("succeeded");
    const after = readDocuments(first.db, first.result.runId, "site").map((d) => d.url);
    expect(new Set(after).size).toBe(after.length);
    expect(after.sort()).toEqual([`${site.url}/docs/`, ...Array.from({ length: DOCS }, (_, i) => `${site.url}/docs/${i + 1}`)].sort());
  });
});
