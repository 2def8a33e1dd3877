// serve's --per-host-concurrency: how many pages of one host a job has in flight at once.
import { afterEach, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

const PAGES = 8;

/** A site whose pages are answered once `hold` (told how many are in flight, this one included) settles; it counts the peak. */
function countingSite(hold: (inFlight: number) => Promise<void>): { site: FixtureSite; peak: () => number } {
  const site = new FixtureSite();
  let inFlight = 0;
  let peak = 0;
  site.page("/", htmlPage("Home", Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(" ")));
  site.page("/robots.txt", "");
  for (let i = 0; i < PAGES; i++) {
    site.route(`/p/${i}`, async (_req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await hold(inFlight);
      inFlight--;
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>Text of page ${i}.</p>`));
    });
  }
  return { site, peak: () => peak };
}

let serve: Serve | undefined;
let site: FixtureSite | undefined;
afterEach(async () => {
  await serve?.stop();
  await site?.stop();
});

async function crawl(s: Serve, url: string) {
  const started = await s.call("POST", "/v2/crawl", { body: { url, limit: PAGES + 1, sitemap: "skip" } });
  expect(started.status).toBe(200);
  return waitFor(() => s.call("GET", `/v2/crawl/${started.body.id}`), (r) => r.body.status !== "scraping");
}

describe("serve --per-host-concurrency", () => {
  it("lets a job have more pages of one host in flight than the default 4: the site holds its pages until 6 are", async () => {
    const waiting: Array<() => void> = [];
    let open = false;
    const counting = countingSite(async (inFlight) => {
      if (inFlight >= 6) open = true;
      if (open) for (const go of waiting.splice(0)) go();
      else await new Promise<void>((go) => waiting.push(go));
    });
    site = await counting.site.start();
    serve = await startServe({ team: {} }, { concurrency: 8, perHostConcurrency: 6 });
    const done = await crawl(serve, site.url);
    expect(done.body).toMatchObject({ status: "completed", completed: PAGES + 1 });
    expect(counting.peak()).toBe(6);
  });

  it("holds a job to one page of a host at a time with 1, its pool allowing 8", async () => {
    // Each page takes a moment, so pages a wider limit let through would overlap.
    const counting = countingSite(() => new Promise((go) => setTimeout(go, 20)));
    site = await counting.site.start();
    serve = await startServe({ team: {} }, { concurrency: 8, perHostConcurrency: 1 });
    const done = await crawl(serve, site.url);
    expect(done.body).toMatchObject({ status: "completed", completed: PAGES + 1 });
    expect(counting.peak()).toBe(1);
  });
});
