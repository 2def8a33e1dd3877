import { afterEach, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliChild, finish, pipeline, readDocuments, runYaml, workdir } from "../run/helpers.js";
import { addPagedList, credentials, MembersSite, SECRET_KEY, sessionPipeline } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

async function members(): Promise<MembersSite> {
  const site = await new MembersSite().start();
  sites.push(site);
  addPagedList(site);
  return site;
}

describe("the interact step", () => {
  it("carries on from a scrape's page: loads more, keeps a snapshot, goes to the next page, and stores where it ended", async () => {
    const site = await members();
    const steps = `  - id: list
    scrape: { url: ${site.url}/list/1 }
  - id: next
    interact:
      from: list
      actions:
        - { type: click, selector: "#more" }
        - { type: scrape }
        - { type: click, selector: "#next" }
        - { type: wait, selector: "#more" }
        - { type: click, selector: "#more" }
`;
    const { result, db } = await runYaml(pipeline(steps));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "next");
    // The page where the actions ended, and the snapshot the scrape action took on the way (same URL: numbered).
    expect(docs.map((d) => d.url).sort()).toEqual([`${site.url}/list/1`, `${site.url}/list/1#scrape-1`]);
    const snapshot = docs.find((d) => d.url.endsWith("#scrape-1"));
    expect(snapshot?.document.markdown).toContain("Extra on page 1");
    expect(snapshot?.document.markdown).not.toContain("Item 2-a");
    const moved = docs.find((d) => d.url === `${site.url}/list/1`);
    expect(moved?.document.metadata.url).toBe(`${site.url}/list/2`);
    expect(moved?.document.markdown).toContain("Item 2-a");
    expect(moved?.document.markdown).toContain("Extra on page 2");
    expect(moved?.document.markdown).not.toContain("Item 1-a");
    expect(moved?.document.actions?.scrapes?.[0]?.html).toContain("Extra on page 1");
  });

  it("paginates: each scrape action stores the page it sees under that page's URL", async () => {
    const site = await members();
    const steps = `  - id: list
    scrape: { url: ${site.url}/list/1 }
  - id: pages
    interact:
      from: list
      actions:
        - { type: click, selector: "#next" }
        - { type: wait, selector: "#more" }
        - { type: scrape }
        - { type: click, selector: "#next" }
        - { type: wait, selector: "#more" }
        - { type: scrape }
`;
    const { result, db } = await runYaml(pipeline(steps));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "pages");
    expect(docs.map((d) => d.url).sort()).toEqual([1, 2, 3].map((n) => `${site.url}/list/${n}`));
    for (const n of [2, 3]) {
      const page = docs.find((d) => d.url === `${site.url}/list/${n}`);
      expect(page?.document.markdown).toContain(`Item ${n}-a`);
      expect(page?.document.metadata.url).toBe(`${site.url}/list/${n}`);
      expect(page?.creditsUsed).toBe(1);
    }
  });

  it("carries on logged in, with the scrape's session", async () => {
    const site = await members();
    const steps = `  - id: home
    session: members
    scrape: { url: ${site.url}/members }
  - id: report
    interact: { from: home, actions: [{ type: click, selector: "a[href='/members/3']" }, { type: wait, selector: "#who" }] }
`;
    const { result, db } = await runYaml(sessionPipeline(site, steps), { env: { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY } });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const [doc] = readDocuments(db, result.runId, "report");
    expect(doc?.document.markdown).toContain("Confidential figure 333");
    expect(site.logins).toBe(1);
  });

  it("names a from that is not a scrape step above it at its line", () => {
    const loaded = loadPipelineText("p.yaml", pipeline(`  - id: m\n    map: { url: https://example.com/ }\n  - id: i\n    interact: { from: m, actions: [{ type: click, selector: a }] }\n`));
    const found = loaded.diagnostics.find((d) => d.code === "unknown-step");
    expect(found?.message).toBe('interact carries on from scrape steps only; "m" is not one');
    expect(found?.line).toBe(8);
  });
});

/**
 * A page whose server gives each load its own number, with a client-side wizard: each button
 * adds a line, so what a page shows tells whether it is the page the scrape left or a new load.
 */
function addWizard(site: MembersSite): void {
  let loads = 0;
  site.site.route("/wizard", (_req, res) => {
    loads++;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(
      `<!doctype html><html><head><title>Wizard</title></head><body><main><h1>Wizard</h1><p id="load">Load number ${loads}</p><ol id="done"></ol>` +
        ["one", "two", "three"].map((n) => `<button id="${n}" onclick="document.getElementById('done').insertAdjacentHTML('beforeend', '<li>Step ${n} done</li>')">${n}</button>`).join("") +
        `<ul id="links">${[1, 2, 3].map((i) => `<li class="card"><a href="/members/${i}">Report ${i}</a></li>`).join("")}<li class="card"><a href="/members/1#top">Report 1 again</a></li></ul></main></body></html>`,
    );
  });
}

const wizardScrape = (site: MembersSite, session = "") => `  - id: wizard
${session}    scrape: { url: ${site.url}/wizard, actions: [{ type: click, selector: "#one" }] }
`;

describe("the interact step on the live page", () => {
  it("carries on from the very page the scrape left: no second load, the scrape's own state", async () => {
    const site = await members();
    addWizard(site);
    const steps = `${wizardScrape(site)}  - id: carry
    interact: { from: wizard, actions: [{ type: click, selector: "#two" }] }
`;
    const { result, db, events } = await runYaml(pipeline(steps));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    expect(site.site.hits.get("/wizard")).toBe(1);
    const [scraped] = readDocuments(db, result.runId, "wizard");
    const [carried] = readDocuments(db, result.runId, "carry");
    expect(scraped?.document.markdown).toContain("Load number 1");
    expect(scraped?.document.markdown).not.toContain("Step two done");
    expect(carried?.document.markdown).toContain("Load number 1");
    expect(carried?.document.markdown).toMatch(/Step one done[\s\S]*Step two done/);
    expect(events.filter((e) => e.type === "step-warning")).toEqual([]);
  });

  it("a second interact step goes on from where the first left the page", async () => {
    const site = await members();
    addWizard(site);
    const steps = `${wizardScrape(site)}  - id: second
    interact: { from: wizard, actions: [{ type: click, selector: "#two" }] }
  - id: third
    needs: [second]
    interact: { from: wizard, actions: [{ type: click, selector: "#three" }] }
`;
    const { result, db } = await runYaml(pipeline(steps));
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const [third] = readDocuments(db, result.runId, "third");
    expect(third?.document.markdown).toMatch(/Load number 1[\s\S]*Step one done[\s\S]*Step two done[\s\S]*Step three done/);
    expect(site.site.hits.get("/wizard")).toBe(1);
  });

  it("opens the page's links in tabs of the same logged-in context and stores each under its URL", async () => {
    const site = await members();
    addWizard(site);
    const steps = `${wizardScrape(site, "    session: members\n")}  - id: reports
    interact:
      from: wizard
      actions: [{ type: click, selector: "#two" }]
      tabs: { selector: "li.card", limit: 2, actions: [{ type: wait, selector: "#who" }] }
`;
    const { result, db, events } = await runYaml(sessionPipeline(site, steps), { env: { ...process.env, ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY } });
    expect(events.filter((e) => e.type === "document-failed")).toEqual([]);
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "reports");
    expect(docs.map((d) => d.url).sort()).toEqual([`${site.url}/members/1`, `${site.url}/members/2`, `${site.url}/wizard`]);
    expect(docs.find((d) => d.url.endsWith("/members/2"))?.document.markdown).toContain("Confidential figure 222");
    expect(docs.find((d) => d.url.endsWith("/wizard"))?.document.markdown).toContain("Step two done");
    expect(site.logins).toBe(1);
  });

  it("a tab that runs out of time fails alone: the next tab still opens in the page's own context", async () => {
    const site = await members();
    site.site.route("/tabs", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<html><body><main><p>Tabs page</p><a class="t" href="/tab-slow">slow</a><a class="t" href="/tab-ok">ok</a></main></body></html>`));
    // Never answered while the run goes on: the tab runs out of time whatever the machine's pace.
    site.site.route("/tab-slow", () => undefined);
    // The cookie the carried-on page sets is sent only by a tab of the same context.
    site.site.route("/tab-ok", (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<html><body><main><p>${/seen=yes/.test(req.headers.cookie ?? "") ? "Opened beside the page" : "Opened on its own"}</p></main></body></html>`));
    const steps = `  - id: page
    scrape: { url: ${site.url}/tabs, timeout: 10000, actions: [{ type: wait, milliseconds: 1 }] }
  - id: tabs
    interact: { from: page, actions: [{ type: executeJavascript, script: "document.cookie = 'seen=yes; path=/'" }], tabs: { selector: "a.t" } }
`;
    const { result, db, events } = await runYaml(pipeline(steps, "concurrency: 1\n").replace("attempts: 3", "attempts: 1"));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(events.filter((e) => e.type === "document-failed").map((e) => ("url" in e ? e.url : ""))).toEqual([`${site.url}/tab-slow`]);
    const docs = readDocuments(db, result.runId, "tabs");
    expect(docs.map((d) => d.url).sort()).toEqual([`${site.url}/tab-ok`, `${site.url}/tabs`]);
    expect(docs.find((d) => d.url.endsWith("/tab-ok"))?.document.markdown).toContain("Opened beside the page");
  });

  it("a run resumed after its scrape loads the page again, says so, and stores what an uninterrupted run does", async () => {
    const site = await members();
    addWizard(site);
    const steps = `${wizardScrape(site)}  - id: carry
    interact:
      from: wizard
      actions: [{ type: click, selector: "#two" }]
      tabs: { selector: "li.card a" }
`;
    const whole = await runYaml(pipeline(steps));
    expect(whole.result.ok && whole.result.status).toBe("succeeded");
    if (!whole.result.ok) return;
    const stop = new AbortController();
    const first = await runYaml(pipeline(steps), { stop: stop.signal, onEvent: (e) => e.type === "step-finished" && e.stepId === "wizard" && stop.abort() });
    expect(first.result.ok && first.result.status).toBe("interrupted");
    const events: Array<{ type: string; message?: string }> = [];
    const resumed = await runYaml(pipeline(steps), { db: first.db, resume: true, onEvent: (e) => events.push(e) });
    expect(resumed.result.ok && resumed.result.status).toBe("succeeded");
    if (!resumed.result.ok || !first.result.ok) return;
    const urls = (db: string, runId: number) => readDocuments(db, runId, "carry").map((d) => d.url).sort();
    expect(urls(first.db, first.result.runId)).toEqual(urls(whole.db, whole.result.runId));
    expect(urls(whole.db, whole.result.runId)).toHaveLength(4);
    const [carried] = readDocuments(first.db, first.result.runId, "carry").filter((d) => d.url.endsWith("/wizard"));
    expect(carried?.document.markdown).toMatch(/Step one done[\s\S]*Step two done/);
    expect(events.find((e) => e.type === "step-warning")?.message).toContain('1 of 1 page(s) of "wizard" were loaded again, the scrape\'s waitFor and actions replayed, before this step\'s actions: the scrape ran in an earlier process of this run (resumed)');
  });
});

describe("interact tabs and the firecrawl engine", () => {
  const steps = `  - id: list\n    scrape: { url: https://example.com/list }\n  - id: open\n    interact:\n      from: list\n      actions: [{ type: click, selector: "#more" }]\n      tabs: { selector: "a.item" }\n`;

  it("are refused when the file is loaded, at the step's tabs", () => {
    const yaml = pipeline(steps, "engine: { kind: firecrawl }\n");
    const loaded = loadPipelineText("p.yaml", yaml);
    expect(loaded.pipeline).toBeUndefined();
    const found = loaded.diagnostics.find((d) => d.code === "tabs-on-firecrawl");
    expect(found).toMatchObject({ file: "p.yaml", line: 12, severity: "error" });
    expect(found?.message).toBe('interact step "open" opens tabs, which the firecrawl engine cannot do: tabs are opened in a browser this process drives');
    expect(loadPipelineText("p.yaml", pipeline(steps)).diagnostics).toEqual([]);
  });

  it("a run moved to the firecrawl engine is refused before any work", async () => {
    const run = runYaml(pipeline(steps), { env: { ...process.env, FIRECRAWL_API_KEY: "fc-test" }, engineKind: "firecrawl" });
    await expect(run).rejects.toMatchObject({ kind: "invalid-input", message: expect.stringContaining('interact step "open" opens tabs, which the firecrawl engine cannot do') });
  });
});

describe("interact and Ctrl-C (the built CLI)", () => {
  it("a run stopped while the scrape's page is kept open exits 130, and --resume stores what an uninterrupted run does", async () => {
    const site = await members();
    addWizard(site);
    // The slow page answers once the run has taken the Ctrl-C (it is in flight when the signal comes).
    const held: Array<() => void> = [];
    let holding = true;
    site.site.route("/slow", (_req, res) => {
      const answer = () => void res.writeHead(200, { "content-type": "text/html" }).end("<html><body><main><p>Slow page</p></main></body></html>");
      if (holding) held.push(answer);
      else answer();
    });
    const dir = workdir();
    const file = join(dir, "p.yaml");
    writeFileSync(file, pipeline(`${wizardScrape(site)}  - id: slow\n    needs: [wizard]\n    scrape: { url: ${site.url}/slow }\n  - id: carry\n    needs: [slow]\n    interact: { from: wizard, actions: [{ type: click, selector: "#two" }], tabs: { selector: "li.card a", limit: 2 } }\n`));
    const interrupted = join(dir, "interrupted.db");
    const child = cliChild(["run", file, "--db", interrupted, "--allow-private-network"]);
    let sent = false;
    const first = await finish(child, (err) => {
      if (!sent && err.includes("[slow] scrape started")) {
        sent = true;
        child.kill("SIGINT");
      }
      if (holding && err.includes("stopping: ")) {
        holding = false;
        for (const answer of held.splice(0)) answer();
      }
    });
    expect(first.code).toBe(130);
    expect(first.err).toContain("--resume");
    const resumed = await finish(cliChild(["run", file, "--db", interrupted, "--allow-private-network", "--resume"]));
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain('1 of 1 page(s) of "wizard" were loaded again');
    const whole = join(dir, "whole.db");
    expect((await finish(cliChild(["run", file, "--db", whole, "--allow-private-network"]))).code).toBe(0);
    const stored = (db: string) => readDocuments(db, 1, "carry").map((d) => [d.url, d.document.markdown?.replace(/Load number \d+/, "")]).sort();
    expect(stored(interrupted)).toEqual(stored(whole));
    expect(stored(whole)).toHaveLength(3);
  });
});

