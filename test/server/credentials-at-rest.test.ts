import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** What a request brings to reach a site (its headers, the text its actions type) is used, never kept. */

const TOKEN = "Bearer hdr-secret-5521";
const site = new FixtureSite();
let serve: Serve;
const seen: string[] = [];

beforeAll(async () => {
  site.route("/private", (req, res) => {
    seen.push(String(req.headers.authorization));
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Private", "<p>members only</p>"));
  });
  await site.start();
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

/** Every stored plan, decompressed, and every byte of the database file and its log. */
function stored(): string {
  const store = new SqliteStore(serve.db);
  try {
    const plans = store.listRuns().map((r) => store.runPlan(r.id) ?? "");
    const bytes = [serve.db, `${serve.db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString("latin1"));
    return [...plans, ...bytes].join("\n");
  } finally {
    store.close();
  }
}

describe("credentials in requests", () => {
  it("a scrape's and a crawl's headers reach the site but are not stored with the run's plan", async () => {
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/private`, headers: { Authorization: TOKEN } } });
    expect(scraped.status, JSON.stringify(scraped.body)).toBe(200);
    const crawl = await serve.call("POST", "/v2/crawl", { body: { url: `${site.url}/private`, limit: 1, scrapeOptions: { headers: { authorization: TOKEN } } } });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
    await waitFor(() => serve.call("GET", `/v2/crawl/${crawl.body.id}`), (r) => r.body.status !== "scraping");
    expect(seen.filter((h) => h === TOKEN).length).toBeGreaterThanOrEqual(2);
    const text = stored();
    expect(text).not.toContain("hdr-secret-5521");
    // What was sent is still on record, by name.
    expect(text).toMatch(/"authorization":"\[not stored\]"/i);
  });
});
