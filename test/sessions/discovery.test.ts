import { afterEach, describe, expect, it } from "vitest";
import { readDocuments, runYaml } from "../run/helpers.js";
import { addMembersSitemap, credentials, expectSitemapCrawl, MembersSite, SECRET_KEY, sessionPipeline, sitemapCrawlStep } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

const env = { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };

/** A members' area whose robots.txt and sitemap are behind the login (see addMembersSitemap). */
async function membersWithSitemap(): Promise<{ site: MembersSite; robotsSeen: string[]; sitemapSeen: string[] }> {
  const site = await new MembersSite().start();
  sites.push(site);
  return { site, ...addMembersSitemap(site) };
}

describe("discovery in a session", () => {
  it("a crawl reads robots.txt and the sitemap behind the login with the session's cookies", async () => {
    const { site, robotsSeen, sitemapSeen } = await membersWithSitemap();
    const { result, db } = await runYaml(sessionPipeline(site, sitemapCrawlStep(site)), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    // The sitemap's report is found, and robots.txt (read logged in) keeps the crawl out of the drafts it links to.
    expectSitemapCrawl(site, readDocuments(db, result.runId, "reports"));
    expect(robotsSeen.length).toBeGreaterThan(0);
    for (const cookie of [...robotsSeen, ...sitemapSeen]) expect(cookie).toMatch(/sid=[0-9a-f]{32}/);
    expect(sitemapSeen.length).toBeGreaterThan(0);
    expect(site.logins).toBe(1);
  });

  it("an extract step's glob is expanded by a map read logged in (the members' sitemap)", async () => {
    const { site, sitemapSeen } = await membersWithSitemap();
    const steps = `  - id: figures
    session: members
    extract: { urls: ["${site.url}/members/ann*"], schema: { type: object, properties: { title: { type: string } } } }
`;
    const { result, db, events } = await runYaml(sessionPipeline(site, steps, "extractor: deterministic\n"), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    expect(events.some((e) => e.type === "step-warning" && e.message.includes("matched no URL"))).toBe(false);
    const pages = readDocuments(db, result.runId, "figures");
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual(["/members/annual"]);
    expect(pages[0]?.document.markdown ?? JSON.stringify(pages[0]?.document.json)).toBeTruthy();
    expect(sitemapSeen.some((c) => /sid=[0-9a-f]{32}/.test(c))).toBe(true);
    expect(site.logins).toBe(1);
  });
});
