import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { readDocuments, runYaml } from "./helpers.js";

const site = new FixtureSite();
// Nothing listens on port 1 of the loopback address: a page there fails at once.
const REFUSED = "http://127.0.0.1:1/gone";

beforeAll(async () => {
  site.page("/a", htmlPage("A", "<p>Add to cart</p>"));
  // A Cloudflare challenge in place of the page: a block page, not content.
  site.route("/challenged", (_req, res) => res.writeHead(403, { "content-type": "text/html", "cf-mitigated": "challenge", server: "cloudflare" }).end(readFileSync(new URL("../fixtures/blocked/block/cloudflare-managed-challenge.html", import.meta.url), "utf8")));
  site.page("/b", htmlPage("B", "<p>Sold out</p>"));
  await site.start();
});
afterAll(() => site.stop());

const pipeline = (expectYaml: string, urls = ["/a", "/b"]) => `version: 1
name: recipe
retry: { attempts: 1 }
steps:
  - id: pages
    scrape: { urls: [${urls.map((u) => `"${u.startsWith("http") ? u : site.url + u}"`).join(", ")}] }
    expect:
${expectYaml}`;

describe("a run's expectations", () => {
  it("fail the step with cause expectation, keep its pages, and store the verdict with the step", async () => {
    const { result, events, db } = await runYaml(pipeline(`      documents: { min: 2 }\n      markdown: { contains: ["Add to cart"] }\n`));
    expect(result.ok && result.status).toBe("failed");
    expect(result.ok && result.cause).toBe("expectation");
    const finished = events.find((e) => e.type === "step-finished");
    expect(finished).toMatchObject({ status: "failed", cause: "expectation", error: "expectations broken: markdown" });
    const runId = result.ok ? result.runId : 0;
    expect(readDocuments(db, runId, "pages")).toHaveLength(2);
    const store = new SqliteStore(db);
    try {
      const step = store.getSteps(runId)[0]!;
      expect(step.status).toBe("failed");
      expect(step.expectations?.passed).toBe(false);
      expect(step.expectations?.results.map((r) => [r.name, r.passed, r.at.line])).toEqual([["documents", true, 8], ["markdown", false, 9]]);
      expect(step.expectations?.results[1]!.pages).toEqual([`${site.url}/b`]);
    } finally {
      store.close();
    }
  });

  it("succeed when every expectation holds", async () => {
    const { result } = await runYaml(pipeline(`      documents: { min: 1, max: 1 }\n      markdown: { contains: ["Add to cart"] }\n`, ["/a"]));
    expect(result.ok && result.status).toBe("succeeded");
    expect(result.ok && result.cause).toBeUndefined();
  });

  it("let expect.failed decide how many failed pages a step may have", async () => {
    const within = await runYaml(pipeline(`      failed: { maxShare: 0.5 }\n`, ["/a", REFUSED]));
    expect(within.result.ok && within.result.status).toBe("succeeded");
    const beyond = await runYaml(pipeline(`      failed: { max: 0 }\n`, ["/a", REFUSED]));
    expect(beyond.result.ok && beyond.result.status).toBe("failed");
    expect(beyond.events.find((e) => e.type === "step-finished")).toMatchObject({ cause: "expectation", error: "expectations broken: failed" });
  });

  it("count the pages the site answered with a block page as blocked, and no page that failed otherwise", async () => {
    const blocked = await runYaml(pipeline(`      failed: { max: 2 }\n      blocked: { max: 0 }\n`, ["/a", "/challenged"]));
    expect(blocked.result.ok && blocked.result.status).toBe("failed");
    expect(blocked.events.find((e) => e.type === "step-finished")).toMatchObject({ cause: "expectation", error: "expectations broken: blocked" });
    const refused = await runYaml(pipeline(`      failed: { max: 2 }\n      blocked: { max: 0 }\n`, ["/a", REFUSED]));
    expect(refused.result.ok && refused.result.status).toBe("succeeded");
  });

  it("without expect.failed, a failed page fails the step for its own cause", async () => {
    const { result, events } = await runYaml(pipeline(`      documents: { min: 5 }\n`, ["/a", REFUSED]));
    expect(result.ok && result.status).toBe("failed");
    expect(result.ok && result.cause).toBeUndefined();
    expect(events.find((e) => e.type === "step-finished")).toMatchObject({ error: "1 page(s) failed; expectations broken: documents" });
  });

  it("judge the whole run with the pipeline's expect and store it with the run", async () => {
    const yaml = `version: 1\nname: recipe\nexpect:\n  documents: { min: 3 }\nsteps:\n  - id: pages\n    scrape: { url: "${site.url}/a" }\n`;
    const { result, db } = await runYaml(yaml);
    expect(result.ok && result.status).toBe("failed");
    expect(result.ok && result.cause).toBe("expectation");
    expect(result.ok && result.expectations?.results[0]).toMatchObject({ name: "documents", passed: false, at: { line: 4, column: 3 }, problems: ["1 stored, expected at least 3"] });
    const store = new SqliteStore(db);
    try {
      const run = store.getRun(result.ok ? result.runId : 0)!;
      expect(run.expectations?.passed).toBe(false);
      expect(run.error).toMatch(/the pipeline's expectations broken: documents/);
    } finally {
      store.close();
    }
  });
});
