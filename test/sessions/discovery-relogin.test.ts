import { afterEach, describe, expect, it } from "vitest";
import { readDocuments, runYaml, workdir } from "../run/helpers.js";
import { addMembersSitemap, credentials, expectSitemapCrawl, MembersSite, SECRET_KEY, sessionPipeline, sitemapCrawlStep } from "./members-site.js";
import { join } from "node:path";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

// The key keeps the login in the database, so the second run reuses it (until the site forgets it).
const env = { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };

/** A members' area whose robots.txt and sitemap are behind the login (see addMembersSitemap). */
async function membersWithSitemap(options: ConstructorParameters<typeof MembersSite>[0] = {}): Promise<{ site: MembersSite; sitemapSeen: string[] }> {
  const site = await new MembersSite(options).start();
  sites.push(site);
  return { site, sitemapSeen: addMembersSitemap(site).sitemapSeen };
}

/** Runs `yaml` twice on one database: the first run logs in and keeps the login, then the site forgets every session. */
async function runAfterExpiry(site: MembersSite, yaml: string) {
  const db = join(workdir(), "kept.db");
  const first = await runYaml(yaml, { env, db });
  expect(first.result.ok && first.result.status).toBe("succeeded");
  expect(site.logins).toBe(1);
  site.expireAll();
  return runYaml(yaml, { env, db });
}

const stepError = (events: Awaited<ReturnType<typeof runYaml>>["events"], stepId: string) => {
  const finished = events.find((e) => e.type === "step-finished" && e.stepId === stepId);
  return finished?.type === "step-finished" ? finished : undefined;
};

describe("discovery renews an expired login", () => {
  it("a crawl whose kept login expired logs in again once and is seeded by the members' sitemap", async () => {
    const { site, sitemapSeen } = await membersWithSitemap();
    const { result, db } = await runAfterExpiry(site, sessionPipeline(site, sitemapCrawlStep(site)));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    // Only the sitemap leads to the annual report; robots.txt (read with the new login) keeps the drafts out.
    expectSitemapCrawl(site, readDocuments(db, result.runId, "reports"));
    expect(site.logins).toBe(2);
    // The sitemap was last read with the second login's cookie.
    expect(sitemapSeen.at(-1)).toContain(`sid=${site.issued[1]}`);
  });

  it("an extract step's glob expands through the members' sitemap after one new login", async () => {
    const { site } = await membersWithSitemap();
    const steps = `  - id: figures
    session: members
    extract: { urls: ["${site.url}/members/ann*"], schema: { type: object, properties: { title: { type: string } } } }
`;
    const { result, db, events } = await runAfterExpiry(site, sessionPipeline(site, steps, "extractor: deterministic\n"));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    expect(events.some((e) => e.type === "step-warning" && e.message.includes("matched no URL"))).toBe(false);
    expect(readDocuments(db, result.runId, "figures").map((p) => new URL(p.url).pathname)).toEqual(["/members/annual"]);
    expect(site.logins).toBe(2);
  });

  it("a map that meets the sign-in form (expiredWhen) logs in again and lists the members' pages", async () => {
    // The site answers a forgotten session with its sign-in form at the page's own URL: only expiredWhen tells.
    const site = await new MembersSite({ loggedOut: "form" }).start();
    sites.push(site);
    site.addMemberPage("/members/", "Index", `<li><a href="/members/1">One</a></li><li><a href="/members/2">Two</a></li>`);
    const steps = `  - id: figures
    session: members
    extract: { urls: ["${site.url}/members/*"], ignoreSitemap: true, limit: 10, schema: { type: object, properties: { title: { type: string } } } }
`;
    const yaml = sessionPipeline(site, steps, "extractor: deterministic\n", `    expiredWhen: { selector: "form[action='/login'] input[type=password]" }\n`);
    const { result, db } = await runAfterExpiry(site, yaml);
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const paths = readDocuments(db, result.runId, "figures").map((p) => new URL(p.url).pathname);
    // Only the index read logged in links to the reports.
    expect(paths).toEqual(expect.arrayContaining(["/members/1", "/members/2"]));
    expect(paths).not.toContain("/login");
    expect(site.logins).toBe(2);
    // Every member page links to /logout: the logged-in walk never follows it.
    expect(site.signOuts).toBe(0);
  });

  it("a crawl whose fresh login still cannot reach the sitemap fails, naming the sitemap and the session", async () => {
    const site = await new MembersSite().start();
    sites.push(site);
    // A sitemap no login opens: always sent to the sign-in page.
    site.site.route("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nSitemap: ${site.url}/private/sitemap.xml\n`));
    site.site.route("/private/sitemap.xml", (_req, res) => res.writeHead(302, { location: "/login" }).end());
    const steps = `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: include }
`;
    const { result, events, db } = await runYaml(sessionPipeline(site, steps), { env });
    expect(result.ok && result.status).toBe("failed");
    if (!result.ok) return;
    expect(stepError(events, "reports")?.error).toContain(`${site.url}/private/sitemap.xml, read to discover the site's URLs, still led to the login page of session "members" right after a fresh login`);
    expect(readDocuments(db, result.runId, "reports")).toHaveLength(0);
    // The first login, then exactly one more.
    expect(site.logins).toBe(2);
  });

  it("a discovery answered 401 logs in again once", async () => {
    const { site } = await membersWithSitemap();
    const steps = `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: include }
`;
    const yaml = sessionPipeline(site, steps);
    // robots.txt answers an unknown session with 401 (and no Sitemap line), as an API-style members' area does.
    site.site.route("/robots.txt", (req, res) => {
      const sid = /sid=([0-9a-f]+)/.exec(req.headers.cookie ?? "")?.[1];
      if (sid === undefined || sid !== site.issued.at(-1)) res.writeHead(401, { "content-type": "text/plain" }).end("sign in first");
      else res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nDisallow: /members/drafts\nSitemap: ${site.url}/members/sitemap.xml\n`);
    });
    const db = join(workdir(), "kept.db");
    expect((await runYaml(yaml, { env, db })).result.ok).toBe(true);
    // The site hands out a new session elsewhere: the kept one is no longer the latest, robots.txt answers 401.
    site.issued.push("0".repeat(32));
    site.expireAll();
    const { result } = await runYaml(yaml, { env, db });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const paths = readDocuments(db, result.runId, "reports").map((d) => new URL(d.url).pathname);
    expect(paths).toContain("/members/annual");
    expect(site.logins).toBe(2);
  });
});
