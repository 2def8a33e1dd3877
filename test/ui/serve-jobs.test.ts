import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "../server/helpers.js";

/** What serve's /ui shows of the runs its jobs made: parse uploads and searches. */

let serve: Serve;
let searx: FakeSearxng;
const site = new FixtureSite();

beforeAll(async () => {
  for (let i = 1; i <= 2; i++) site.page(`/r${i}`, htmlPage(`Result ${i}`, `<p>Body of result ${i}.</p>`));
  await site.start();
  searx = await new FakeSearxng({ results: { general: webResults(site.url, 2) } }).start();
  // The network policy on: the search results (on 127.0.0.1) cannot be scraped.
  serve = await startServe({ a: { planTokens: 1_000_000 } }, { allowPrivateNetwork: false, env: { SCRAPELINE_SEARXNG_URL: searx.url } });
});
afterAll(async () => {
  await serve?.stop();
  await searx?.stop();
  await site.stop();
});

const auth = () => ({ authorization: `Bearer ${serve.keys.a}` });

async function get(path: string) {
  const res = await fetch(`${serve.server.url}${path}`, { headers: auth() });
  return { status: res.status, text: await res.text() };
}

/** The newest run the team's /ui lists. */
async function newestRun(): Promise<number> {
  const list = await get("/ui/");
  return Math.max(...[...list.text.matchAll(/data-run="(\d+)"/g)].map((m) => Number(m[1])));
}

describe("serve's /ui and its jobs' runs", () => {
  it("names a /v2/parse upload by the file name the client gave, never the temporary copy", async () => {
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("name,qty\nbolt,4\n")]), "stock list.csv");
    const res = await fetch(`${serve.server.url}/v2/parse`, { method: "POST", headers: auth(), body: form });
    const answer = (await res.json()) as any;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.data.metadata.sourceURL).toBe("stock list.csv");
    const id = await newestRun();
    const run = await get(`/ui/runs/${id}`);
    expect(run.status).toBe(200);
    expect(run.text).not.toMatch(/scrapeline-upload-|file:/);
    expect(run.text).toContain(`href="/ui/runs/${id}/doc?step=request&amp;url=stock+list.csv"`);
    const doc = await get(`/ui/runs/${id}/doc?step=request&url=${encodeURIComponent("stock list.csv")}`);
    expect(doc.status).toBe(200);
    expect(doc.text).toContain("bolt");
    expect(doc.text).not.toMatch(/scrapeline-upload-|file:/);
    // A file that fails (a mislabelled document: the client's error, 422) is named the same way.
    const bad = new FormData();
    bad.append("file", new Blob([new TextEncoder().encode("just words")]), "report.docx");
    const failed = await fetch(`${serve.server.url}/v2/parse`, { method: "POST", headers: auth(), body: bad });
    expect(failed.status).toBe(422);
    const failedRun = await get(`/ui/runs/${await newestRun()}`);
    expect(failedRun.text).toContain("report.docx");
    expect(failedRun.text).not.toMatch(/scrapeline-upload-|file:/);
    // Nothing stored names the temporary copy either.
    const bytes = [serve.db, `${serve.db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString("latin1")).join("");
    expect(bytes).not.toContain("scrapeline-upload-");
  });

  it("shows the run of a search whose result scrapes the network policy refused, and the search says which failed", async () => {
    const { status, body } = await serve.call("POST", "/v2/search", { body: { query: "bolts", limit: 2, scrapeOptions: { formats: ["markdown"] } } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.web.map((r: { url: string }) => r.url)).toEqual([`${site.url}/r1`, `${site.url}/r2`]);
    expect(body.warning).toMatch(/^2 of 2 results could not be scraped: /);
    for (const r of body.data.web) {
      expect(body.warning).toContain(r.url);
      expect(r.markdown).toBeUndefined();
      expect(r.metadata).toMatchObject({ sourceURL: r.url, statusCode: 403, error: expect.stringContaining("refused by the network policy") });
    }
    const id = await newestRun();
    const run = await get(`/ui/runs/${id}`);
    expect(run.status, run.text.slice(0, 300)).toBe(200);
    expect(run.text).toContain(`${site.url}/r1`);
    expect(run.text).toContain("refused by the network policy");
  });
});
