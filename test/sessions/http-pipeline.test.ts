import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { RunTally } from "../../src/cli/progress.js";
import { summaryTable } from "../../src/cli/summary.js";
import { readDocuments, runYaml } from "../run/helpers.js";
import { credentials, MembersSite, PASSWORD, SECRET_KEY, sessionPipeline } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

async function members(options: ConstructorParameters<typeof MembersSite>[0] = {}): Promise<MembersSite> {
  const site = await new MembersSite(options).start();
  sites.push(site);
  return site;
}

const crawlStep = (site: MembersSite) => `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: skip }
`;

const env = (extra: Record<string, string> = {}) => ({ ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY, ...extra });

describe("sessions over plain HTTP", () => {
  it("logs in once in the browser and crawls the members' area over HTTP with the session's cookies", async () => {
    const site = await members();
    const { result, db, events } = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env() });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs.map((d) => new URL(d.url).pathname).sort()).toEqual(["/members", "/members/1", "/members/2", "/members/3", "/members/4"]);
    for (const doc of docs) expect(doc.document.markdown).toContain("Signed in as ada");
    expect(docs.find((d) => d.url.endsWith("/members/3"))?.document.markdown).toContain("Confidential figure 333");
    expect(site.logins).toBe(1);
    // The crawl's pages went over HTTP (the browser only logged in) and kept the cookies the pages set.
    expect(site.cookiesSeen.length).toBe(5);
    expect(site.cookiesSeen.some((c) => /visits=\d/.test(c))).toBe(true);
    expect(events.some((e) => e.type === "step-warning" && e.message.includes("not kept"))).toBe(false);
  });

  it("a logged-in crawl does not follow the link that signs it out, and says so", async () => {
    const site = await members();
    const steps = `  - id: everything
    session: members
    crawl: { url: ${site.url}/members, limit: 20, sitemap: skip }
`;
    const { result, db, events } = await runYaml(sessionPipeline(site, steps), { env: env() });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    expect(site.signOuts).toBe(0);
    expect(site.logins).toBe(1);
    expect(readDocuments(db, result.runId, "everything").map((d) => new URL(d.url).pathname)).not.toContain("/logout");
    const warning = events.find((e) => e.type === "step-warning" && e.message.includes("sign session"));
    expect(warning && "message" in warning ? warning.message : "").toBe(`1 link(s) that would sign session "members" out were not followed: ${site.url}/logout`);
  });

  it("loads an extract step's pages logged in", async () => {
    const site = await members();
    const steps = `  - id: figures
    session: members
    extract: { urls: ["${site.url}/members/2"], schema: { type: object, properties: { title: { type: string } } } }
`;
    const { result, db } = await runYaml(sessionPipeline(site, steps, "extractor: deterministic\n"), { env: env() });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const [page] = readDocuments(db, result.runId, "figures");
    expect(page?.document.metadata.url).toBe(`${site.url}/members/2`);
    expect(site.cookiesSeen).toHaveLength(1);
    expect(site.cookiesSeen[0]).toMatch(/sid=[0-9a-f]{32}/);
  });

  it("keeps the login encrypted in the database and reuses it in the next run", async () => {
    const site = await members();
    const first = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env() });
    expect(first.result.ok && first.result.status).toBe("succeeded");
    const second = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env(), db: first.db });
    expect(second.result.ok && second.result.status).toBe("succeeded");
    expect(site.logins).toBe(1);
    expect(site.attempts).toBe(1);
    if (!second.result.ok) return;
    for (const doc of readDocuments(second.db, second.result.runId, "reports")) expect(doc.document.markdown).toContain("Signed in as ada");

    const sqlite = new Database(first.db, { readonly: true });
    const rows = sqlite.prepare("SELECT key_hash, ciphertext FROM session_states").all() as Array<{ key_hash: string; ciphertext: Buffer }>;
    sqlite.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ciphertext.toString("latin1")).not.toContain("sid");
    // Another key finds no login of its own: the run logs in again.
    const third = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env({ SCRAPELINE_SECRET_KEY: "another-key-entirely-different" }), db: first.db });
    expect(third.result.ok && third.result.status).toBe("succeeded");
    expect(site.logins).toBe(2);
  });

  it("logs in again, saying why, when the kept state has been tampered with", async () => {
    const site = await members();
    const first = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env() });
    expect(first.result.ok && first.result.status).toBe("succeeded");
    const sqlite = new Database(first.db);
    sqlite.prepare("UPDATE session_states SET ciphertext = zeroblob(length(ciphertext))").run();
    sqlite.close();
    const second = await runYaml(sessionPipeline(site, crawlStep(site)), { env: env(), db: first.db });
    expect(second.result.ok && second.result.status).toBe("succeeded");
    expect(site.logins).toBe(2);
    expect(second.events.some((e) => e.type === "step-warning" && e.message.includes("could not be decrypted"))).toBe(true);
  });

  it("logs in again once when a page shows the session expired, and carries on", async () => {
    const site = await members({ logoutAfter: 3 });
    const { result, db } = await runYaml(sessionPipeline(site, crawlStep(site), "concurrency: 1\n"), { env: env() });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs).toHaveLength(5);
    for (const doc of docs) {
      expect(doc.document.metadata.url).not.toMatch(/\/login$/);
      expect(doc.document.markdown).toContain("Signed in as ada");
    }
    expect(site.logins).toBe(2);
  });

  it("pages that see the expiry at the same time share one new login", async () => {
    const site = await members({ logoutAfter: 3, pages: 4 });
    const { result, db } = await runYaml(sessionPipeline(site, crawlStep(site), "concurrency: 4\nperHostConcurrency: 4\n"), { env: env() });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    for (const doc of readDocuments(db, result.runId, "reports")) expect(doc.document.markdown).toContain("Signed in as ada");
    // /members, then four pages at once: two pass, two land on the login page and wait for one renewal.
    expect(site.logins).toBe(2);
  });

  it("logs in again when the kept login is older than maxAge", async () => {
    const site = await members();
    const steps = `  - id: one\n    session: members\n    scrape: { url: ${site.url}/members/1 }\n`;
    const yaml = sessionPipeline(site, steps).replace("successWhen:", "maxAge: 1s\n    successWhen:");
    const first = await runYaml(yaml, { env: env() });
    expect(first.result.ok && first.result.status).toBe("succeeded");
    await new Promise((r) => setTimeout(r, 1100));
    const second = await runYaml(yaml, { env: env(), db: first.db });
    expect(second.result.ok && second.result.status).toBe("succeeded");
    expect(site.logins).toBe(2);
  });

  it("without SCRAPELINE_SECRET_KEY says the login is not kept, and keeps nothing", async () => {
    const site = await members();
    const noKey: Record<string, string | undefined> = { ...process.env, ...credentials };
    delete noKey.SCRAPELINE_SECRET_KEY;
    const { result, db, events } = await runYaml(sessionPipeline(site, crawlStep(site)), { env: noKey });
    expect(result.ok && result.status).toBe("succeeded");
    expect(events.some((e) => e.type === "step-warning" && e.message.includes("SCRAPELINE_SECRET_KEY is not set"))).toBe(true);
    const sqlite = new Database(db, { readonly: true });
    expect((sqlite.prepare("SELECT COUNT(*) AS n FROM session_states").get() as { n: number }).n).toBe(0);
    sqlite.close();
  });

  it("fails the steps that need a login that fails, with the reason, and fetches none of their pages", async () => {
    const site = await members();
    const steps = `${crawlStep(site)}  - id: open\n    scrape: { url: ${site.url}/public }\n    continueOnError: true\n`;
    const yaml = sessionPipeline(site, steps).replace("- id: reports", "- id: reports\n    continueOnError: true").replace("successWhen:", "timeoutMs: 3000\n    successWhen:");
    const { result, db, events } = await runYaml(yaml, { env: env({ SITE_PASSWORD: "wrong-password" }) });
    expect(result.ok && result.status).toBe("failed");
    const finished = events.find((e) => e.type === "step-finished" && e.stepId === "reports");
    expect(finished && finished.type === "step-finished" && finished.error).toMatch(/login of session "members" failed: no element matched successWhen.selector "#logout"/);
    expect(site.cookiesSeen).toHaveLength(0);
    if (!result.ok) return;
    // The summary table `run` prints has the step's row.
    const tally = new RunTally(() => 0);
    for (const event of events) tally.apply(event);
    expect(summaryTable(tally, result.status, result.credits)).toMatch(/^reports\s+failed\s+0\s+0\s/m);
    expect(readDocuments(db, result.runId, "open")).toHaveLength(1);
    expect(readFileSync(db).toString("latin1")).not.toContain(PASSWORD);
  });
});

describe("sessions and --engine firecrawl", () => {
  it("a run moved to the firecrawl engine is refused before any page or login, naming the step", async () => {
    const site = await members();
    const run = runYaml(sessionPipeline(site, crawlStep(site)), { env: env({ FIRECRAWL_API_KEY: "fc-test" }), engineKind: "firecrawl" });
    await expect(run).rejects.toMatchObject({ kind: "invalid-input", message: expect.stringContaining('step "reports" uses session "members", which the firecrawl engine cannot do') });
    expect(site.attempts).toBe(0);
    expect(site.cookiesSeen).toHaveLength(0);
    expect(site.site.hits.size).toBe(0);
  });
});
