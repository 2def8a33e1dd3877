import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FaultProxy } from "../helpers/fault-proxy.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "../run/helpers.js";
import { startServe, waitFor, type Serve } from "../server/helpers.js";

// The remote engine against scrapeline serve, behind a proxy that injects what a real server
// does not produce on demand: HTML in place of JSON, bodies cut short, 429 storms, endless jobs.
const site = new FixtureSite();
let serve: Serve;
let proxy: FaultProxy;

beforeAll(async () => {
  site.page("/", htmlPage("Home", Array.from({ length: 12 }, (_, i) => `<a href="/p/${i}">p${i}</a>`).join(" ")));
  for (let i = 0; i < 12; i++) site.page(`/p/${i}`, htmlPage(`P${i}`, `<p>page ${i}</p>`));
  site.route("/slow", async (_req, res) => {
    await new Promise((r) => setTimeout(r, 300));
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Slow", `<p>slow</p>${Array.from({ length: 30 }, (_, i) => `<a href="/slow/${i}">s</a>`).join("")}`));
  });
  await site.start();
  serve = await startServe({ faults: { planTokens: 1_000_000 } });
  proxy = await new FaultProxy(serve.server.url).start();
});
afterAll(async () => {
  await proxy?.stop();
  await serve?.stop();
  await site?.stop();
});
beforeEach(() => proxy.clear());

const remote = (steps: string) => pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${proxy.url}" }\ndefaults: { scrapeOptions: { maxAge: 0 } }\n`);
const env = () => ({ FIRECRAWL_API_KEY: serve.keys.faults! });

describe("remote engine through a fault-injecting proxy", () => {
  it("rides out a 429 storm and an HTML page in place of JSON on scrapes", async () => {
    proxy.inject("POST", /^\/v2\/scrape/, { kind: "429", message: "Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0. please retry after 0s" }, 5);
    proxy.inject("POST", /^\/v2\/scrape/, { kind: "html" }, 1);
    const { result, db } = await runYaml(remote(`  - id: a\n    scrape: { url: "${site.url}/p/1" }\n`), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(readDocuments(db, result.runId)[0]!.document.markdown).toContain("page 1");
    expect(proxy.seen.filter((s) => s.fault === "429")).toHaveLength(5);
    expect(proxy.seen.filter((s) => s.fault === "html")).toHaveLength(1);
  });

  it("reads a crawl whose status answers are cut short or HTML now and then: every page stored once", async () => {
    proxy.inject("GET", /^\/v2\/crawl\/[^/?]+/, { kind: "truncate" }, 1);
    proxy.inject("GET", /^\/v2\/crawl\/[^/?]+/, { kind: "html", status: 503 }, 1);
    const { result, db } = await runYaml(remote(`  - id: c\n    crawl: { url: "${site.url}/", limit: 50, sitemap: skip }\n`), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const urls = readDocuments(db, result.runId, "c").map((d) => d.url);
    expect(urls).toHaveLength(13);
    expect(new Set(urls).size).toBe(13);
    expect(proxy.seen.some((s) => s.fault === "truncate")).toBe(true);
  });

  it("cancels a crawl that seems to go on forever when the step times out, and the server's job ends cancelled", async () => {
    proxy.inject("GET", /^\/v2\/crawl\/[^/?]+/, { kind: "rewrite", edit: (b) => ({ ...b, status: "scraping", next: undefined, data: [] }) }, Infinity);
    const { result, events } = await runYaml(remote(`  - id: c\n    crawl: { url: "${site.url}/slow", limit: 30, crawlEntireDomain: true }\n    timeoutMs: 1500\n`), { env: env() });
    if (!result.ok) throw new Error("invalid");
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ status: "cancelled" });
    const cancel = proxy.seen.find((s) => s.method === "DELETE");
    expect(cancel?.path).toMatch(/^\/v1\/crawl\//);
    const id = cancel!.path.split("/").pop()!;
    proxy.clear();
    const status = await waitFor(() => serve.call("GET", `/v2/crawl/${id}`), (r) => r.body.status !== "scraping");
    expect(status.body.status).toBe("cancelled");
  });
});
