import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { SqliteStore } from "../../src/store/index.js";
import { cliChild, finish, pipeline, readDocuments, readStepResult, workdir } from "./helpers.js";

const site = new FixtureSite();
const COOKIE = "sid-secret-from-run-4e1a";

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /shop/hidden\n"));
  site.route("/shop/", (_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": `sid=${COOKIE}; Path=/` }).end(htmlPage("Shop", '<p><a href="/shop/kettle">Kettle</a> <a href="/shop/toaster">Toaster</a></p>')),
  );
  for (const [name, price, sale] of [["kettle", "30", "25"], ["toaster", "45", "40"]] as const) {
    site.page(`/shop/${name}`, htmlPage(name, `<article><h2 class="name">${name}</h2><p class="price">${price} EUR</p><p class="sale">${sale} EUR</p></article><aside>Sidebar of ${name}</aside>`));
  }
  site.page("/extra", htmlPage("Extra", "<p>Not fetched by the first run.</p>"));
  await site.start();
});
afterAll(() => site.stop());

/** A crawl of the shop and a scrape whose json is filled by a CSS selector. */
function yaml(options: { selector?: string; onlyMainContent?: boolean; urls?: string[] } = {}): string {
  const urls = options.urls ?? [`${site.url}/shop/kettle`];
  return pipeline(
    `  - id: shop\n    crawl: { url: "${site.url}/shop/", sitemap: skip, limit: 10, scrapeOptions: { formats: [markdown], onlyMainContent: ${options.onlyMainContent ?? false} } }\n` +
      `  - id: price\n    scrape:\n      urls: ${JSON.stringify(urls)}\n      formats:\n        - markdown\n        - type: json\n          schema: { type: object, properties: { price: { type: number, x-selector: "${options.selector ?? ".price"}" } } }\n`,
  );
}

/** Runs the built CLI on `text` (written to the run's pipeline file) with the shared database. */
async function cli(dir: string, text: string, ...args: string[]) {
  const file = join(dir, "shop.yaml");
  writeFileSync(file, text);
  return finish(cliChild(["run", file, "--db", join(dir, "shop.db"), "--allow-private-network", ...args]));
}

const totalHits = () => [...site.hits.values()].reduce((a, b) => a + b, 0);

function documentsOf(db: string, runId: number): Record<string, string> {
  return Object.fromEntries(readDocuments(db, runId).map((p) => [`${p.stepId} ${p.url}`, JSON.stringify(p.document)]));
}

function runsOf(db: string) {
  const store = new SqliteStore(db);
  try {
    return store.listRuns();
  } finally {
    store.close();
  }
}

describe("run --from-run", () => {
  const dir = workdir();
  const db = join(dir, "shop.db");

  it("converts the pages a run stored with a changed selector and onlyMainContent, sending no request", async () => {
    const live = await cli(dir, yaml());
    expect(live.code, live.err).toBe(0);
    expect(readDocuments(db, 1, "price")[0]!.document.json).toEqual({ price: 30 });
    const hits = totalHits();
    expect(site.hits.get("/robots.txt")).toBeGreaterThan(0);

    const changed = await cli(dir, yaml({ selector: ".sale", onlyMainContent: true }), "--from-run", "latest");
    expect(changed.code, changed.err).toBe(0);
    expect(changed.err).toContain('converting the pages run 1 stored (pipeline "test"');
    expect(totalHits()).toBe(hits);
    expect(readDocuments(db, 2, "price")[0]!.document.json).toEqual({ price: 25 });
    const kettle = readDocuments(db, 2, "shop").find((p) => p.url.endsWith("/shop/kettle"))!;
    expect(kettle.document.markdown).not.toContain("Sidebar of kettle");
    expect(readDocuments(db, 1, "shop").find((p) => p.url.endsWith("/shop/kettle"))!.document.markdown).toContain("Sidebar of kettle");
    expect(readDocuments(db, 2, "shop")).toHaveLength(3);

    // The old run is untouched; the new one says where its pages came from.
    expect(readDocuments(db, 1, "price")[0]!.document.json).toEqual({ price: 30 });
    expect(runsOf(db).map((r) => [r.id, r.fromRun])).toEqual([[2, 1], [1, undefined]]);
    const runs = await finish(cliChild(["runs", "--db", db]));
    expect(runs.out).toMatch(/^2 .*run 1$/m);
    const show = await finish(cliChild(["show", "2", "--db", db]));
    expect(show.out).toContain("made from the pages run 1 stored");
  });

  it("stores byte-identical documents when nothing changed", async () => {
    const hits = totalHits();
    const same = await cli(dir, yaml(), "--from-run", "1");
    expect(same.code, same.err).toBe(0);
    expect(totalHits()).toBe(hits);
    const runId = runsOf(db)[0]!.id;
    expect(documentsOf(db, runId)).toEqual(documentsOf(db, 1));
    expect(Object.keys(documentsOf(db, 1))).toHaveLength(4);
  });

  it("keeps no cookie the site set", () => {
    const store = new SqliteStore(db);
    try {
      const table = store.fetchedPages();
      const answers = [...table.index(1).values()].map((described) => table.answer(described));
      expect(answers.length).toBeGreaterThanOrEqual(4);
      for (const answer of answers) {
        expect("headers" in answer && answer.headers["set-cookie"]).toBeFalsy();
        expect(JSON.stringify("headers" in answer ? answer.headers : answer)).not.toContain(COOKIE);
      }
      const shop = answers.find((a) => "url" in a && a.url.endsWith("/shop/"))!;
      expect("headers" in shop && shop.headers["content-type"]).toBe("text/html; charset=utf-8");
    } finally {
      store.close();
    }
  });

  it("fails a page the run never fetched with not-stored; --fetch-missing fetches only that one", async () => {
    const extra = `${site.url}/extra`;
    const urls = [`${site.url}/shop/kettle`, extra];
    const hits = totalHits();
    const missing = await cli(dir, yaml({ urls }), "--from-run", "1", "--json");
    expect(missing.code).toBe(1);
    const summary = JSON.parse(missing.out);
    expect(summary.failedPages).toEqual([expect.objectContaining({ url: extra, step: "price", error: expect.stringContaining("not-stored") })]);
    expect(totalHits()).toBe(hits);
    // Finishing that run takes the same run's pages: the command it prints says so, and without it the run is refused.
    const failedRun = runsOf(db)[0]!.id;
    expect(missing.err).toContain(`--resume ${failedRun} --db ${db} --allow-private-network --from-run 1`);
    const live = await cli(dir, yaml({ urls }), "--resume", String(failedRun));
    expect(live.code).toBe(2);
    expect(live.err).toContain(`run ${failedRun} was made from the pages run 1 stored: finish it with --from-run 1`);
    expect(totalHits()).toBe(hits);

    const fetched = await cli(dir, yaml({ urls }), "--from-run", "1", "--fetch-missing");
    expect(fetched.code, fetched.err).toBe(0);
    expect(totalHits()).toBe(hits + 1);
    expect(site.hits.get("/extra")).toBe(1);
    const runId = runsOf(db)[0]!.id;
    expect(readDocuments(db, runId, "price").map((p) => p.url).sort()).toEqual(urls.sort());
  });

  it("refuses an unknown run, --record beside it and --fetch-missing alone, before any work", async () => {
    const before = runsOf(db).length;
    const unknown = await cli(dir, yaml(), "--from-run", "99");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/run 99 not found; runs: \d+ \(test\), /);
    const record = await cli(dir, yaml(), "--from-run", "1", "--record", join(dir, "fixture"));
    expect(record.code).toBe(2);
    expect(record.err).toContain("--from-run and --record cannot be used together");
    const alone = await cli(dir, yaml(), "--fetch-missing");
    expect(alone.code).toBe(2);
    expect(runsOf(db).length).toBe(before);
  });

  it("takes another pipeline's run with a warning naming it", async () => {
    const other = await cli(dir, yaml().replace("name: test", "name: other"), "--from-run", "1");
    expect(other.code, other.err).toBe(0);
    expect(other.err).toContain('warning: run 1 is of pipeline "test", not "other"');
  });

  it("converts the pages of a run that took them from the page cache, from the run that fetched them", async () => {
    const cachedDir = workdir();
    const cachedDb = join(cachedDir, "shop.db");
    expect((await cli(cachedDir, yaml())).code).toBe(0);
    const second = await cli(cachedDir, yaml());
    expect(second.code, second.err).toBe(0);
    expect(readDocuments(cachedDb, 2, "price")[0]!.document.metadata.cacheState).toBe("hit");
    const hits = totalHits();
    const changed = await cli(cachedDir, yaml({ selector: ".sale" }), "--from-run", "latest");
    expect(changed.code, changed.err).toBe(0);
    expect(changed.err).toContain("converting the pages run 2 stored");
    expect(totalHits()).toBe(hits);
    expect(readDocuments(cachedDb, 3, "price")[0]!.document.json).toEqual({ price: 25 });
  });

  it("re-extracts an extract step's pages, found by a map of what was stored", async () => {
    const extractDir = workdir();
    const extract = (selector: string) =>
      pipeline(`  - id: prices\n    extract:\n      urls: ["${site.url}/shop/*"]\n      schema: { type: object, properties: { prices: { type: array, x-selector: "article", items: { type: object, properties: { name: { type: string, x-selector: ".name" }, price: { type: number, x-selector: "${selector}" } } } } } }\n`);
    const live = await cli(extractDir, extract(".price"));
    expect(live.code, live.err).toBe(0);
    const prices = (runId: number) => (readStepResult(join(extractDir, "shop.db"), runId, "prices").data.prices as Array<{ name: string; price: number }>).map((p) => `${p.name} ${p.price}`).sort();
    expect(prices(1)).toEqual(["kettle 30", "toaster 45"]);
    const hits = totalHits();
    const changed = await cli(extractDir, extract(".sale"), "--from-run", "1");
    expect(changed.code, changed.err).toBe(0);
    expect(totalHits()).toBe(hits);
    expect(prices(2)).toEqual(["kettle 25", "toaster 40"]);
  });

  it("keeps no raw page for a pipeline that says keepPages: false, and --from-run of its run is refused saying why", async () => {
    const other = workdir();
    const text = yaml().replace("retry:", "keepPages: false\nretry:");
    const live = await cli(other, text);
    expect(live.code, live.err).toBe(0);
    expect(readDocuments(join(other, "shop.db"), 1, "price")[0]!.document.json).toEqual({ price: 30 });
    const store = new SqliteStore(join(other, "shop.db"));
    try {
      expect(store.fetchedPages().keptAny(1)).toBe(false);
    } finally {
      store.close();
    }
    const refused = await cli(other, text, "--from-run", "1");
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("--from-run: run 1 kept no fetched pages (it fetched nothing, its pipeline says keepPages: false");
  });

  it("needs no network: with the site gone, the pages are converted all the same", async () => {
    await site.stop();
    const gone = await cli(dir, yaml({ selector: ".sale" }), "--from-run", "1");
    expect(gone.code, gone.err).toBe(0);
    expect(readDocuments(db, runsOf(db)[0]!.id, "price")[0]!.document.json).toEqual({ price: 25 });
  });
});
