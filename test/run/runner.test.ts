import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import type { RunEvent } from "../../src/app/index.js";
import { pipeline, readDocuments, runYaml } from "./helpers.js";

const site = new FixtureSite();
const other = new FixtureSite();

beforeAll(async () => {
  site
    .page("/", htmlPage("Home", `<p>Welcome.</p><ul>${[1, 2, 3].map((i) => `<li><a href="/p/${i}">Page ${i}</a></li>`).join("")}<li><a href="/about">About</a></li></ul>`))
    .page("/p/1", htmlPage("One", "<p>First page.</p>"))
    .page("/p/2", htmlPage("Two", "<p>Second page.</p>"))
    .page("/p/3", htmlPage("Three", "<p>Third page.</p>"))
    .page("/about", htmlPage("About", "<p>About us.</p>"))
    .route("/429-seconds", (_req, res, n) => (n === 1 ? res.writeHead(429, { "retry-after": "1" }).end() : res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Later", "<p>ok</p>"))))
    .route("/429-date", (_req, res, n) => (n === 1 ? res.writeHead(429, { "retry-after": new Date(Date.now() + 1000).toUTCString() }).end() : res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Dated", "<p>ok</p>"))))
    .route("/429-forever", (_req, res) => res.writeHead(429, { "retry-after": "3600" }).end())
    .route("/flaky", (_req, res, n) => (n <= 2 ? res.writeHead(503).end("busy") : res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Flaky", "<p>finally</p>"))))
    .route("/reset", (req, res, n) => {
      if (n === 1) req.socket.destroy();
      else res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Reset", "<p>recovered</p>"));
    })
    .route("/hang", () => {})
    .page("/gone", htmlPage("Gone", "<p>not here</p>"), 404);
  await site.start();
  other.page("/b/1", htmlPage("B1", "<p>b</p>")).page("/b/2", htmlPage("B2", "<p>b</p>"));
  await other.start();
});

afterAll(async () => {
  await site.stop();
  await other.stop();
});

const scrape = (id: string, url: string, extra = "") => `  - id: ${id}\n    scrape: { url: "${url}"${extra} }\n`;

describe("run", () => {
  it("scrapes pages, stores them with their credits and reports them", async () => {
    const { result, db, events } = await runYaml(pipeline(scrape("home", `${site.url}/`, ", formats: [markdown, links]") + scrape("one", `${site.url}/p/1`)));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(result.credits).toBe(2);
    const docs = readDocuments(db, result.runId);
    expect(docs.map((d) => d.stepId).sort()).toEqual(["home", "one"]);
    const home = docs.find((d) => d.stepId === "home")!.document;
    expect(home.markdown).toContain("Welcome.");
    expect(home.links).toContain(`${site.url}/p/2`);
    expect(home.metadata).toMatchObject({ statusCode: 200, title: "Home", creditsUsed: 1, sourceURL: `${site.url}/` });
    expect(events.filter((e) => e.type === "document-stored")).toHaveLength(2);
  });

  it("takes URLs from an earlier step with include globs and a limit", async () => {
    const yaml = pipeline(scrape("home", `${site.url}/`, ", formats: [markdown, links]") + `  - id: pages\n    scrape:\n      urls: { from: home, include: ["/p/*"], limit: 2 }\n`);
    const { result, db } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    expect(readDocuments(db, result.runId, "pages").map((d) => d.url)).toEqual([`${site.url}/p/1`, `${site.url}/p/2`]);
  });

  it("waits out a 429 (Retry-After seconds, then an HTTP date) without spending an attempt", async () => {
    const yaml = `version: 1\nname: rl\nretry: { attempts: 1, initialDelayMs: 10, maxDelayMs: 10 }\nsteps:\n${scrape("a", `${site.url}/429-seconds`)}${scrape("b", `${site.url}/429-date`)}`;
    const { result, events } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    const waits = events.filter((e) => e.type === "document-retried");
    expect(waits).toHaveLength(2);
    expect(waits[0]).toMatchObject({ delayMs: 1000 });
  });

  it("fails a page whose Retry-After is beyond the step's patience, without sleeping", async () => {
    const { result, events } = await runYaml(pipeline(`  - id: a\n    timeoutMs: 60000\n    scrape: { url: "${site.url}/429-forever" }\n`));
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(events.find((e) => e.type === "document-failed")).toMatchObject({ kind: "rate-limited" });
  });

  it("retries 503 twice then succeeds; retries a reset connection", async () => {
    const { result, events } = await runYaml(pipeline(scrape("flaky", `${site.url}/flaky`) + scrape("reset", `${site.url}/reset`)));
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(events.filter((e) => e.type === "document-retried" && e.stepId === "flaky")).toHaveLength(2);
    expect(events.filter((e) => e.type === "document-retried" && e.stepId === "reset")).toHaveLength(1);
  });

  it("stores a 404 as a document and does not retry it", async () => {
    const before = site.hits.get("/gone") ?? 0;
    const { result, db } = await runYaml(pipeline(scrape("gone", `${site.url}/gone`)));
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(readDocuments(db, result.runId)[0]!.document.metadata.statusCode).toBe(404);
    expect(site.hits.get("/gone")! - before).toBe(1);
  });

  it("gives up on a server that never answers, fails the step and skips its dependents", async () => {
    const yaml = `version: 1\nname: hang\nretry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 10 }\nsteps:\n${scrape("hang", `${site.url}/hang`, ", timeout: 1000")}  - id: after\n    needs: [hang]\n    scrape: { url: "${site.url}/p/1" }\n`;
    const { result, events } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(result.failedSteps).toEqual(["hang"]);
    expect(events.find((e) => e.type === "document-failed")).toMatchObject({ kind: "timeout" });
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ stepId: "after", reason: 'needs "hang", which failed' });
  });

  it("continueOnError lets independent steps run after a failure", async () => {
    const yaml = `version: 1\nname: coe\nretry: { attempts: 1, initialDelayMs: 10, maxDelayMs: 10 }\nsteps:\n  - id: bad\n    continueOnError: true\n    scrape: { url: "${site.url}/hang", timeout: 1000 }\n  - id: good\n    needs: []\n    scrape: { url: "${site.url}/p/2" }\n`;
    const { result } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(result.failedSteps).toEqual(["bad"]);
  });

  it("lets steps already running finish when another step fails; the ones not yet started are skipped with the cause", async () => {
    // Both steps start together; "bad" is first in the pool's queue (one slot), and the slow step's
    // first page is answered only once "bad" has failed, so the slow step is still running then.
    let badFailed!: () => void;
    const failed = new Promise<void>((resolve) => (badFailed = resolve));
    site.route("/after-failure", async (_req, res) => {
      await failed;
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("After", "<p>after the failure</p>"));
    });
    const yaml = `version: 1\nname: halt\nconcurrency: 1\nretry: { attempts: 1, initialDelayMs: 10, maxDelayMs: 10 }\nsteps:\n${scrape("bad", "http://127.0.0.1:1/")}  - id: slow\n    continueOnError: true\n    scrape: { urls: ["${site.url}/after-failure", "${site.url}/p/3"] }\n  - id: later\n    needs: [slow]\n    scrape: { url: "${site.url}/p/1" }\n`;
    const events: RunEvent[] = [];
    const { result, db } = await runYaml(yaml, {
      onEvent: (e) => {
        events.push(e);
        if (e.type === "step-finished" && e.stepId === "bad") badFailed();
      },
    });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("failed");
    expect(result.failedSteps).toEqual(["bad"]);
    expect(events.find((e) => e.type === "step-finished" && e.stepId === "slow")).toMatchObject({ status: "succeeded", documents: 2 });
    expect(readDocuments(db, result.runId, "slow").map((d) => d.url).sort()).toEqual([`${site.url}/after-failure`, `${site.url}/p/3`]);
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ stepId: "later", reason: 'the run stopped: step "bad" failed' });
  });

  it("a prompt-only extract with no model, running when another step fails, fails with its own error", async () => {
    const yaml = `version: 1\nname: nomodel\nconcurrency: 1\nretry: { attempts: 1, initialDelayMs: 10, maxDelayMs: 10 }\nsteps:\n${scrape("bad", "http://127.0.0.1:1/")}  - id: ex\n    extract: { urls: ["${site.url}/p/1", "${site.url}/p/2"], prompt: The title }\n`;
    const { result, events } = await runYaml(yaml, { env: {} });
    if (!result.ok) throw new Error("invalid");
    expect(result.failedSteps.sort()).toEqual(["bad", "ex"]);
    const failed = events.filter((e) => e.type === "document-failed" && e.stepId === "ex");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toMatchObject({ reason: expect.stringContaining("set SCRAPELINE_LLM_BASE_URL and SCRAPELINE_LLM_MODEL") });
  });

  it("stops before the budget would be exceeded, keeping what it stored", async () => {
    const yaml = `version: 1\nname: budget\nconcurrency: 1\nbudget: { maxCredits: 2 }\nsteps:\n  - id: pages\n    scrape: { urls: ["${site.url}/p/1", "${site.url}/p/2", "${site.url}/p/3", "${site.url}/about"] }\n  - id: later\n    needs: [pages]\n    scrape: { url: "${site.url}/" }\n`;
    const { result, db, events } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("budget-exhausted");
    expect(result.credits).toBe(2);
    expect(readDocuments(db, result.runId)).toHaveLength(2);
    expect(events.some((e) => e.type === "budget-exhausted")).toBe(true);
  });

  it("answers from the page cache within maxAge, marking the document", async () => {
    const yaml = pipeline(scrape("cached", `${site.url}/about`, ", maxAge: 600000"));
    const first = await runYaml(yaml);
    if (!first.result.ok) throw new Error("invalid");
    const hits = site.hits.get("/about");
    const second = await runYaml(yaml, { db: first.db });
    if (!second.result.ok) throw new Error("invalid");
    expect(site.hits.get("/about")).toBe(hits);
    const doc = readDocuments(first.db, second.result.runId)[0]!.document;
    expect(doc.metadata.cacheState).toBe("hit");
    expect(doc.metadata.cachedAt).toEqual(expect.any(String));
    expect(doc.metadata.creditsUsed).toBe(1);
    const fresh = await runYaml(pipeline(scrape("cached", `${site.url}/about`, ", maxAge: 0")), { db: first.db });
    if (!fresh.result.ok) throw new Error("invalid");
    expect(site.hits.get("/about")).toBe(hits! + 1);
  });

  it("answers a later step from the cache an earlier step of the same run filled", async () => {
    // The cache starts empty, so the first step's pages are fetched without a lookup; the pages it
    // stores must still answer the second step.
    site.hits.delete("/p/2");
    const steps = scrape("first", `${site.url}/p/2`, ", maxAge: 600000") + `  - id: second\n    needs: [first]\n    scrape: { url: "${site.url}/p/2", maxAge: 600000 }\n`;
    const { result, db } = await runYaml(pipeline(steps));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(site.hits.get("/p/2")).toBe(1);
    expect(readDocuments(db, result.runId, "first")[0]!.document.metadata.cacheState).toBe("miss");
    expect(readDocuments(db, result.runId, "second")[0]!.document.metadata.cacheState).toBe("hit");
  });

  it("a 429 from one host does not hold back another host", async () => {
    const yaml = `version: 1\nname: hosts\nconcurrency: 4\nsteps:\n  - id: a\n    scrape: { url: "${site.url}/429-seconds" }\n  - id: b\n    needs: []\n    scrape: { urls: ["${other.url}/b/1", "${other.url}/b/2"] }\n`;
    site.hits.delete("/429-seconds");
    const { result, events } = await runYaml(yaml);
    if (!result.ok) throw new Error("invalid");
    const stored = events.filter((e) => e.type === "document-stored").map((e) => (e.type === "document-stored" ? e.stepId : ""));
    expect(stored).toEqual(["b", "b", "a"]);
  });
});
