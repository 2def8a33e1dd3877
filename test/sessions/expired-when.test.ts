import { afterEach, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { readDocuments, runYaml } from "../run/helpers.js";
import { credentials, MembersSite, SECRET_KEY, sessionPipeline } from "./members-site.js";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A members' site that logs the session out after `logoutAfter` pages and then answers its sign-in form with a 200 at the page's own URL. */
async function formSite(logoutAfter: number): Promise<MembersSite> {
  const site = await new MembersSite({ logoutAfter, loggedOut: "form" }).start();
  stops.push(() => site.stop());
  return site;
}

const env = { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };
const reports = (site: MembersSite, extra = "") => `  - id: reports
    session: members
    scrape: { urls: ["${site.url}/members/1", "${site.url}/members/2", "${site.url}/members/3", "${site.url}/members/4"]${extra} }
`;

describe("expiredWhen: a login that expired, seen on the page", () => {
  it("without expiredWhen a 200 sign-in form is stored as the page (only redirects and 401s show expiry)", async () => {
    const site = await formSite(2);
    const { result, db } = await runYaml(sessionPipeline(site, reports(site), "concurrency: 1\n"), { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs.filter((d) => d.document.markdown?.includes("Signed in as ada"))).toHaveLength(2);
    expect(site.logins).toBe(1);
  });

  it("a page showing expiredWhen.selector logs in again and is loaded once more, over HTTP", async () => {
    const site = await formSite(2);
    const yaml = sessionPipeline(site, reports(site), "concurrency: 1\n", `    expiredWhen: { selector: "form[action='/login'] input[type=password]" }\n`);
    const { result, db } = await runYaml(yaml, { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs).toHaveLength(4);
    for (const doc of docs) {
      expect(doc.document.markdown).toContain("Signed in as ada");
      expect(doc.document).not.toHaveProperty("expiredShown");
    }
    // Two pages per login: the third page showed the form, the session logged in again.
    expect(site.logins).toBe(2);
  });

  it("expiredWhen.textContains is judged on the page as the browser rendered it", async () => {
    const site = await formSite(3);
    const yaml = sessionPipeline(site, reports(site), "engine: { kind: local, browser: always }\nconcurrency: 1\n", `    expiredWhen: { textContains: "Sign in" }\n`);
    const { result, db } = await runYaml(yaml, { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs).toHaveLength(4);
    for (const doc of docs) expect(doc.document.markdown).toContain("Signed in as ada");
    expect(site.logins).toBe(2);
  });

  it("a page that still shows expiredWhen right after a fresh login fails, saying so; the others are stored", async () => {
    const site = await formSite(100);
    const yaml = sessionPipeline(site, reports(site), "concurrency: 1\n", `    expiredWhen: { textContains: "Confidential figure 222" }\n`);
    const { result, db, events } = await runYaml(yaml, { env });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs.map((d) => new URL(d.url).pathname).sort()).toEqual(["/members/1", "/members/3", "/members/4"]);
    const failure = events.find((e) => e.type === "document-failed" && e.url.endsWith("/members/2"));
    expect(failure?.type === "document-failed" && failure.reason).toContain(`still showed expiredWhen {textContains: "Confidential figure 222"} of session "members" right after a fresh login`);
    expect(site.logins).toBe(2);
  });

  it("the login page itself, asked for on purpose, is stored as it is", async () => {
    const site = await formSite(100);
    const steps = `  - id: form
    session: members
    scrape: { url: ${site.url}/login }
`;
    const yaml = sessionPipeline(site, steps, "", `    expiredWhen: { selector: "form[action='/login']" }\n`);
    const { result, db } = await runYaml(yaml, { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    expect(readDocuments(db, result.runId, "form")[0]?.document.markdown).toContain("Sign in");
    expect(site.logins).toBe(1);
  });

  it("pages of another site are never judged by expiredWhen", async () => {
    const site = await formSite(100);
    const other = await new FixtureSite().page("/elsewhere", htmlPage("Elsewhere", `<form action="/login"><input type="password"></form><p>Sign in</p>`)).start();
    stops.push(() => other.stop());
    // The same loopback server under another host name: the session's cookies (for 127.0.0.1) do not go there.
    const elsewhere = other.url.replace("127.0.0.1", "localhost");
    const steps = `  - id: mixed
    session: members
    scrape: { urls: ["${site.url}/members/1", "${elsewhere}/elsewhere"] }
`;
    const yaml = sessionPipeline(site, steps, "concurrency: 1\n", `    expiredWhen: { textContains: "Sign in" }\n`);
    const { result, db } = await runYaml(yaml, { env });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "mixed");
    expect(docs).toHaveLength(2);
    expect(docs.find((d) => d.url.includes("localhost"))?.document.markdown).toContain("Sign in");
    expect(site.logins).toBe(1);
  });
});
