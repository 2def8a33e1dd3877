import { afterEach, describe, expect, it } from "vitest";
import { readDocuments, runYaml } from "../run/helpers.js";
import { credentials, MembersSite, SECRET_KEY, sessionPipeline } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

const env = { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };

describe("sessions in browser-rendered steps", () => {
  it("loads every page of a browser crawl with the session's cookies and storage, and logs in again after it expired", async () => {
    const site = await new MembersSite({ logoutAfter: 3 }).start();
    sites.push(site);
    const steps = `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: skip }
  - id: storage
    needs: [reports]
    session: members
    scrape: { url: ${site.url}/members/storage, waitFor: 100 }
`;
    const { result, db } = await runYaml(sessionPipeline(site, steps, "engine: { kind: local, browser: always }\nconcurrency: 1\n"), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs).toHaveLength(5);
    for (const doc of docs) expect(doc.document.markdown).toContain("Signed in as ada");
    // Five pages with a logout after three: one login, then one more.
    expect(site.logins).toBe(2);
    const [storage] = readDocuments(db, result.runId, "storage");
    expect(storage?.document.markdown).toContain("kept in local storage");
  });

  it("a scrape with actions in a session runs them on the logged-in page", async () => {
    const site = await new MembersSite().start();
    sites.push(site);
    const steps = `  - id: report
    session: members
    scrape: { url: ${site.url}/members, actions: [{ type: click, selector: "a[href='/members/2']" }, { type: wait, selector: "#who" }] }
`;
    const { result, db } = await runYaml(sessionPipeline(site, steps), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const [doc] = readDocuments(db, result.runId, "report");
    expect(doc?.document.metadata.url).toBe(`${site.url}/members/2`);
    expect(doc?.document.markdown).toContain("Confidential figure 222");
  });
});
