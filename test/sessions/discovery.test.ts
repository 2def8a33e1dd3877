import { afterEach, describe, expect, it } from "vitest";
import { readDocuments, runYaml } from "../run/helpers.js";
import { credentials, MembersSite, SECRET_KEY, sessionPipeline } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

const env = { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };

/**
 * A members' area whose robots.txt and sitemap are behind the login: the sitemap lists a report
 * no page links to, robots.txt keeps crawlers out of /members/drafts (linked from that report).
 */
async function membersWithSitemap(): Promise<{ site: MembersSite; robotsSeen: string[]; sitemapSeen: string[] }> {
  const site = await new MembersSite().start();
  sites.push(site);
  const robotsSeen: string[] = [];
  const sitemapSeen: string[] = [];
  site
    .addMemberFile("/robots.txt", "text/plain", () => `User-agent: *\nDisallow: /members/drafts\nSitemap: ${site.url}/members/sitemap.xml\n`, robotsSeen)
    .addMemberFile("/members/sitemap.xml", "application/xml", () => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/members/annual</loc></url></urlset>`, sitemapSeen)
    .addMemberPage("/members/annual", "Annual report", `<p>Annual figure 9999</p><a href="/members/drafts">Drafts</a>`)
    .addMemberPage("/members/drafts", "Drafts", "<p>Not for crawlers</p>");
  return { site, robotsSeen, sitemapSeen };
}

describe("discovery in a session", () => {
  it("a crawl reads robots.txt and the sitemap behind the login with the session's cookies", async () => {
    const { site, robotsSeen, sitemapSeen } = await membersWithSitemap();
    const steps = `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: include }
`;
    const { result, db } = await runYaml(sessionPipeline(site, steps), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const paths = readDocuments(db, result.runId, "reports").map((d) => new URL(d.url).pathname).sort();
    // The sitemap's report is found, and robots.txt (read logged in) keeps the crawl out of the drafts it links to.
    expect(paths).toContain("/members/annual");
    expect(paths).not.toContain("/members/drafts");
    expect(site.site.hits.get("/members/drafts")).toBeUndefined();
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
