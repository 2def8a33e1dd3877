import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setThreatPolicy } from "../../src/app/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let site: FixtureSite;
let local: string;
let riskList: string;

const scrape = (team: string, url: string, extra: Record<string, unknown> = {}) => serve.call("POST", "/v2/scrape", { key: serve.keys[team]!, body: { url, maxAge: 0, ...extra } });

beforeAll(async () => {
  site = await new FixtureSite().page("/", htmlPage("Home", "<p>Safe page</p>")).start();
  local = site.url.replace("127.0.0.1", "localhost");
  const teams = { off: {}, fixed: {}, enforced: {}, lists: {}, scan: {}, closed: {} };
  // The risk list is written before the server starts and removed later to make it unreadable.
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  riskList = join(mkdtempSync(join(tmpdir(), "risk-")), "risk.txt");
  writeFileSync(riskList, "# domain score\nrisky.test 90\n*.shady.test 70\nlocalhost 10\n");
  serve = await startServe(teams, { riskList });
  setThreatPolicy(serve.db, "fixed", { enabled: true, overridesAllowed: false, blacklist: ["evil.test"] });
  setThreatPolicy(serve.db, "enforced", { enabled: true, enforced: true, mode: "normal", failurePolicy: "open" });
  setThreatPolicy(serve.db, "lists", { enabled: true, blacklist: ["localhost", "*.example.com"], blockedTlds: ["zip"] });
  setThreatPolicy(serve.db, "scan", { enabled: true, mode: "normal", failurePolicy: "open", riskScoreThreshold: 50 });
  setThreatPolicy(serve.db, "closed", { enabled: true, mode: "normal", failurePolicy: "closed" });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

describe("403 causes", () => {
  it("an override when the feature is not enabled for the team", async () => {
    const r = await scrape("off", local, { threatProtection: { mode: "normal" } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, error: expect.stringContaining("not enabled") });
    expect((await scrape("off", local)).status).toBe(200);
  });

  it("an override when the organisation disabled overrides", async () => {
    const r = await scrape("fixed", local, { threatProtection: { blacklist: [] } });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("overrides are disabled");
    expect((await scrape("fixed", "http://evil.test/")).status).toBe(403);
  });

  it("mode off while threat protection is enforced", async () => {
    const r = await scrape("enforced", local, { threatProtection: { mode: "off" } });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("enforced");
    const ok = await scrape("enforced", local, { threatProtection: { failurePolicy: "open" } });
    expect(ok.status).toBe(200);
  });
});

describe("rules", () => {
  it("blacklist blocks before any fetch; the whitelist wins over it", async () => {
    const hits = site.hits.get("/") ?? 0;
    const blocked = await scrape("lists", `${local}/`);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toContain("blacklist");
    expect(site.hits.get("/") ?? 0).toBe(hits);
    const allowed = await scrape("lists", `${local}/`, { threatProtection: { whitelist: ["localhost"] } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.markdown).toContain("Safe page");
  });

  it("wildcard domains block subdomains, not the domain itself", async () => {
    expect((await scrape("lists", "http://shop.example.com/", { timeout: 1000 })).status).toBe(403);
    expect((await scrape("lists", "http://a.b.example.com/", { timeout: 1000 })).status).toBe(403);
    // Not blocked: the fetch is attempted (and fails: no internet in tests), so not 403.
    expect((await scrape("lists", "http://example.com.invalid/", { timeout: 1000 })).status).not.toBe(403);
  });

  it("blocked TLDs", async () => {
    const r = await scrape("lists", "http://files.download.zip/x", { timeout: 1000 });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("blockedTlds");
    const override = await scrape("lists", "http://files.download.zip/x", { timeout: 1000, threatProtection: { blockedTlds: [] } });
    expect(override.status).not.toBe(403);
  });

  it("a crawl and a batch refuse blocked start URLs", async () => {
    expect((await serve.call("POST", "/v2/crawl", { key: serve.keys.lists!, body: { url: `${local}/` } })).status).toBe(403);
    expect((await serve.call("POST", "/v2/batch/scrape", { key: serve.keys.lists!, body: { urls: [`${local}/`] } })).status).toBe(403);
    expect((await serve.call("POST", "/v2/map", { key: serve.keys.lists!, body: { url: `${local}/` } })).status).toBe(403);
  });
});

describe("the page cache", () => {
  it("never answers a crawl with a page its team's policy refuses, though another team's crawl cached it", async () => {
    site.page("/links", htmlPage("Links", `<p>Links out</p><a href="${local}/cached">the cached page</a>`));
    site.page("/cached", htmlPage("Cached", "<p>Cached by another team</p>"));
    // Team "off" has no policy: its crawl stores the page (with its links) in the shared page cache.
    const warm = await serve.call("POST", "/v2/crawl", { key: serve.keys.off!, body: { url: `${local}/cached`, sitemap: "skip", limit: 1 } });
    expect(warm.status).toBe(200);
    const warmed = await waitFor(() => serve.call("GET", `/v2/crawl/${warm.body.id}`, { key: serve.keys.off! }), (r) => r.body.status !== "scraping");
    expect(warmed.body.data).toHaveLength(1);
    const hits = site.hits.get("/cached");
    // Team "lists" blacklists localhost; its crawl finds the page by a link, and the cache must not answer it.
    const start = await serve.call("POST", "/v2/crawl", { key: serve.keys.lists!, body: { url: `${site.url}/links`, allowExternalLinks: true, sitemap: "skip", limit: 5 } });
    expect(start.status).toBe(200);
    const done = await waitFor(() => serve.call("GET", `/v2/crawl/${start.body.id}`, { key: serve.keys.lists! }), (r) => r.body.status !== "scraping");
    const urls = (done.body.data as Array<{ metadata: { sourceURL: string } }>).map((d) => d.metadata.sourceURL);
    expect(urls).toContain(`${site.url}/links`);
    expect(urls).not.toContain(`${local}/cached`);
    const errors = await serve.call("GET", `/v2/crawl/${start.body.id}/errors`, { key: serve.keys.lists! });
    expect(JSON.stringify(errors.body)).toContain("blacklist");
    expect(site.hits.get("/cached")).toBe(hits);
  });
});

describe("mode normal: the web-risk list", () => {
  it("scans each URL for +2 credits and blocks at the threshold", async () => {
    const ok = await scrape("scan", `${local}/`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.metadata.creditsUsed).toBe(3);
    const risky = await scrape("scan", "http://risky.test/");
    expect(risky.status).toBe(403);
    expect(risky.body.error).toContain("web-risk score of 90");
    expect((await scrape("scan", "http://www.shady.test/")).status).toBe(403);
    const stricter = await scrape("scan", `${local}/`, { threatProtection: { riskScoreThreshold: 5 } });
    expect(stricter.status).toBe(403);
  });

  it("a whitelisted URL is allowed without a scan, and not charged the +2 of one", async () => {
    const r = await scrape("scan", `${local}/`, { threatProtection: { whitelist: ["localhost"] } });
    expect(r.status).toBe(200);
    expect(r.body.data.metadata.creditsUsed).toBe(1);
    const usage = await serve.call("GET", "/v2/team/token-usage", { key: serve.keys.scan! });
    const scanned = await scrape("scan", `${local}/`);
    expect(scanned.body.data.metadata.creditsUsed).toBe(3);
    const after = await serve.call("GET", "/v2/team/token-usage", { key: serve.keys.scan! });
    expect(usage.body.data.remainingTokens - after.body.data.remainingTokens).toBe(45);
  });

  it("failurePolicy decides when the list cannot be read", async () => {
    rmSync(riskList);
    expect((await scrape("closed", `${local}/`)).status).toBe(403);
    const open = await scrape("scan", `${local}/`);
    expect(open.status).toBe(200);
    const overridden = await scrape("closed", `${local}/`, { threatProtection: { failurePolicy: "open" } });
    expect(overridden.status).toBe(200);
  });
});
