import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
/** What each path answers now; tests change it between runs. */
const pages = new Map<string, { body: string; status?: number }>();

beforeAll(async () => {
  for (const path of ["/a", "/b", "/c", "/flip", "/gone", "/clock", "/ws", "/order"]) {
    site.route(path, (_req, res) => {
      const page = pages.get(path);
      if (!page) return void res.writeHead(404, { "content-type": "text/html" }).end(htmlPage("Not found", "<p>missing</p>"));
      res.writeHead(page.status ?? 200, { "content-type": "text/html" }).end(htmlPage(path.slice(1), page.body));
    });
  }
  await site.start();
});
afterAll(() => site.stop());

const tracked = (id: string, path: string, format = "{ type: changeTracking, modes: [git-diff] }") => `  - id: ${id}\n    scrape: { url: "${site.url}${path}", formats: [markdown, ${format}] }\n`;

async function runOnce(db: string, yaml: string) {
  const { result } = await runYaml(yaml, { db });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  const docs = readDocuments(db, result.runId);
  return { result, docs, byStep: (id: string) => docs.find((d) => d.stepId === id)!.document };
}

describe("change tracking across runs", () => {
  it("reports new, then same, then changed with a unified diff and its structure", async () => {
    const db = join(workdir(), "ct.db");
    pages.set("/a", { body: "<p>Starter: 10 EUR</p><p>Pro: 30 EUR</p>" });
    const yaml = pipeline(tracked("a", "/a"));
    const first = await runOnce(db, yaml);
    expect(first.byStep("a").changeTracking).toEqual({ previousScrapeAt: null, changeStatus: "new", visibility: "visible" });

    const second = await runOnce(db, yaml);
    const startedFirst = new SqliteStore(db);
    const firstRun = startedFirst.getRun(first.result.runId)!;
    startedFirst.close();
    expect(second.byStep("a").changeTracking).toEqual({ previousScrapeAt: firstRun.startedAt, changeStatus: "same", visibility: "visible" });

    pages.set("/a", { body: "<p>Starter: 12 EUR</p><p>Pro: 30 EUR</p>" });
    const third = await runOnce(db, yaml);
    const change = third.byStep("a").changeTracking!;
    expect(change.changeStatus).toBe("changed");
    expect(change.diff!.text).toContain("-Starter: 10 EUR");
    expect(change.diff!.text).toContain("+Starter: 12 EUR");
    const chunk = (change.diff!.json.files[0] as { chunks: Array<{ content: string; changes: Array<{ type: string; content: string }> }> }).chunks[0]!;
    expect(chunk.content).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(chunk.changes.filter((c) => c.type === "add").map((c) => c.content)).toEqual(["+Starter: 12 EUR"]);
    expect(chunk.changes.filter((c) => c.type === "del").map((c) => c.content)).toEqual(["-Starter: 10 EUR"]);
  });

  it("calls a whitespace-only change same, a reordering changed, and ignores volatile patterns", async () => {
    const db = join(workdir(), "ws.db");
    pages.set("/ws", { body: "<p>one two</p>" });
    pages.set("/order", { body: "<ul><li>alpha</li><li>beta</li></ul>" });
    pages.set("/clock", { body: "<p>Prices</p><p>Updated 5 minutes ago</p>" });
    const yaml = pipeline(tracked("ws", "/ws") + tracked("order", "/order") + tracked("clock", "/clock"), 'changeTracking: { volatile: ["Updated \\\\d+ minutes ago"] }\n');
    await runOnce(db, yaml);
    pages.set("/ws", { body: "<p>one      two</p>\n\n\n" });
    pages.set("/order", { body: "<ul><li>beta</li><li>alpha</li></ul>" });
    pages.set("/clock", { body: "<p>Prices</p><p>Updated 7 minutes ago</p>" });
    const next = await runOnce(db, yaml);
    expect(next.byStep("ws").changeTracking!.changeStatus).toBe("same");
    expect(next.byStep("order").changeTracking!.changeStatus).toBe("changed");
    expect(next.byStep("clock").changeTracking!.changeStatus).toBe("same");
  });

  it("reports removed on a 404 where a snapshot existed, and changed when the page comes back", async () => {
    const db = join(workdir(), "gone.db");
    pages.set("/gone", { body: "<p>here</p>" });
    const yaml = pipeline(tracked("g", "/gone"));
    expect((await runOnce(db, yaml)).byStep("g").changeTracking!.changeStatus).toBe("new");
    pages.delete("/gone");
    expect((await runOnce(db, yaml)).byStep("g").changeTracking!.changeStatus).toBe("removed");
    pages.set("/gone", { body: "<p>here</p>" });
    expect((await runOnce(db, yaml)).byStep("g").changeTracking!.changeStatus).toBe("changed");
  });

  it("keeps a page that flips between two versions as a history of versions, content stored once", async () => {
    const db = join(workdir(), "flip.db");
    const yaml = pipeline(tracked("f", "/flip"));
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      pages.set("/flip", { body: i % 2 === 0 ? "<p>version A</p>" : "<p>version B</p>" });
      statuses.push((await runOnce(db, yaml)).byStep("f").changeTracking!.changeStatus);
    }
    expect(statuses).toEqual(["new", "changed", "changed", "changed"]);
    const store = new SqliteStore(db);
    try {
      const history = store.snapshots(`${site.url}/flip`, null);
      expect(history.map((s) => s.version)).toEqual([1, 2, 3, 4]);
      expect(new Set(history.map((s) => s.blobHash)).size).toBe(2);
      expect(store.snapshotMarkdown(history[2]!)).toContain("version A");
    } finally {
      store.close();
    }
  });

  it("compares a tagged scrape only with scrapes of the same tag", async () => {
    const db = join(workdir(), "tags.db");
    pages.set("/b", { body: "<p>first</p>" });
    const nightly = pipeline(tracked("b", "/b", "{ type: changeTracking, tag: nightly }"));
    const plain = pipeline(tracked("b", "/b"));
    expect((await runOnce(db, nightly)).byStep("b").changeTracking!.changeStatus).toBe("new");
    pages.set("/b", { body: "<p>second</p>" });
    expect((await runOnce(db, plain)).byStep("b").changeTracking!.changeStatus).toBe("new");
    expect((await runOnce(db, nightly)).byStep("b").changeTracking!.changeStatus).toBe("changed");
    expect((await runOnce(db, plain)).byStep("b").changeTracking!.changeStatus).toBe("same");
  });

  it("adds nothing per page when an unchanged pipeline runs again", async () => {
    const db = join(workdir(), "growth.db");
    pages.set("/a", { body: "<p>steady</p>" });
    pages.set("/b", { body: "<p>steady too</p>" });
    const yaml = pipeline(tracked("a", "/a") + tracked("b", "/b"));
    await runOnce(db, yaml);
    await runOnce(db, yaml);
    const count = (sql: string) => {
      const store = new SqliteStore(db);
      try {
        return store.db.prepare(sql).pluck().get() as number;
      } finally {
        store.close();
      }
    };
    const before = { blobs: count("SELECT COUNT(*) FROM blobs"), snapshots: count("SELECT COUNT(*) FROM snapshots"), changes: count("SELECT COUNT(*) FROM page_changes") };
    const third = await runOnce(db, yaml);
    expect(third.byStep("a").changeTracking!.changeStatus).toBe("same");
    expect({ blobs: count("SELECT COUNT(*) FROM blobs"), snapshots: count("SELECT COUNT(*) FROM snapshots"), changes: count("SELECT COUNT(*) FROM page_changes") }).toEqual(before);
  });

  it("survives two runs of the same pipeline at once", async () => {
    const db = join(workdir(), "concurrent.db");
    pages.set("/c", { body: "<p>shared</p>" });
    const yaml = pipeline(tracked("c", "/c"));
    await runOnce(db, yaml);
    pages.set("/c", { body: "<p>shared, changed</p>" });
    const [x, y] = await Promise.all([runOnce(db, yaml), runOnce(db, yaml)]);
    expect(x.result.status).toBe("succeeded");
    expect(y.result.status).toBe("succeeded");
    const statuses = [x.byStep("c").changeTracking!.changeStatus, y.byStep("c").changeTracking!.changeStatus];
    expect(statuses).toContain("changed");
    const store = new SqliteStore(db);
    try {
      const versions = store.snapshots(`${site.url}/c`, null).map((s) => s.version);
      expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
      expect(store.snapshotMarkdown(store.latestSnapshot(`${site.url}/c`, null)!)).toContain("shared, changed");
    } finally {
      store.close();
    }
  });
});

describe("change tracking in crawls", () => {
  const crawlSite = new FixtureSite();
  let links = ["/p/1", "/p/2", "/p/3", "/p/4"];
  const alive = new Set(["/p/1", "/p/2", "/p/3", "/p/4"]);

  beforeAll(async () => {
    crawlSite.route("/p/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Index", links.map((l) => `<a href="${l}">${l}</a>`).join(" "))));
    for (const path of ["/p/1", "/p/2", "/p/3", "/p/4"]) {
      crawlSite.route(path, (_req, res) => (alive.has(path) ? res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(path, "<p>page</p>")) : res.writeHead(404).end("gone")));
    }
    await crawlSite.start();
  });
  afterAll(() => crawlSite.stop());

  it("reports pages the previous crawl found and this one did not as hidden", async () => {
    const db = join(workdir(), "crawl.db");
    const yaml = pipeline(`  - id: site\n    crawl: { url: "${crawlSite.url}/p/", sitemap: skip, scrapeOptions: { formats: [markdown, { type: changeTracking }] } }\n`);
    const first = await runOnce(db, yaml);
    expect(first.docs.every((d) => d.document.changeTracking?.changeStatus === "new")).toBe(true);
    expect(first.docs).toHaveLength(5);

    links = ["/p/1", "/p/2"];
    alive.delete("/p/4");
    const second = await runOnce(db, yaml);
    const byUrl = new Map(second.docs.map((d) => [d.url.replace(crawlSite.url, ""), d.document.changeTracking!]));
    expect(byUrl.get("/p/1")).toMatchObject({ changeStatus: "same", visibility: "visible" });
    expect(byUrl.get("/p/3")).toMatchObject({ changeStatus: "same", visibility: "hidden" });
    expect(byUrl.get("/p/4")).toMatchObject({ changeStatus: "removed", visibility: "hidden" });

    // The next crawl asks again for the hidden page that still answers, not for the one gone.
    const hitsBefore = crawlSite.hits.get("/p/4");
    const third = await runOnce(db, yaml);
    const urls = third.docs.map((d) => d.url.replace(crawlSite.url, "")).sort();
    expect(urls).toEqual(["/p/", "/p/1", "/p/2", "/p/3"]);
    expect(crawlSite.hits.get("/p/4")).toBe(hitsBefore);
  });
});
