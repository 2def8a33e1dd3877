import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCompletedText } from "../../src/app/notify/text.js";
import { SqliteStore } from "../../src/store/index.js";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const challenge = readFileSync(new URL("../fixtures/blocked/block/cloudflare-managed-challenge.html", import.meta.url), "utf8");
const site = new FixtureSite();
const hook = new HookServer();
let blocking = false;
let hookUrl = "";

beforeAll(async () => {
  const answer = (body: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
    // Each challenge carries a new ray ID: were it stored, every run would look changed.
    if (blocking) res.writeHead(403, { "content-type": "text/html", "cf-mitigated": "challenge", server: "cloudflare" }).end(challenge.replaceAll("8c1f2a3b4d5e6f70", Math.random().toString(16).slice(2)));
    else res.writeHead(200, { "content-type": "text/html" }).end(body);
  };
  site.route("/price", answer(htmlPage("Grinder", "<p>Price: € 249</p>"))).route("/shop", answer(htmlPage("Shop", '<p>All products</p><a href="/price">Grinder</a>')));
  await site.start();
  hookUrl = `${await hook.start()}/hook`;
});
afterAll(async () => {
  await site.stop();
  await hook.stop();
});

function readRun(db: string, runId: number) {
  const store = new SqliteStore(db);
  try {
    return { run: store.getRun(runId)!, steps: store.getSteps(runId), failures: store.failures(runId), changes: store.pageChanges(runId) };
  } finally {
    store.close();
  }
}

describe("a blocked page", () => {
  it("fails as blocked: not stored, not compared, not billed; the monitor's notification says blocked, and the next real page is compared with the last real one", async () => {
    const db = join(workdir(), "b.db");
    const yaml = pipeline(`  - id: price\n    retry: { attempts: 1 }\n    scrape: { url: "${site.url}/price", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`, `notify: { webhook: { url: "${hookUrl}" }, on: [changed, failed] }\n`);
    blocking = false;
    const first = await runYaml(yaml, { db });
    if (!first.result.ok) throw new Error("invalid");
    expect(readRun(db, first.result.runId).changes.map((c) => c.change.changeStatus)).toEqual(["new"]);

    blocking = true;
    hook.received.length = 0;
    const blocked = await runYaml(yaml, { db });
    if (!blocked.result.ok) throw new Error("invalid");
    const seen = readRun(db, blocked.result.runId);
    expect(seen.failures).toEqual([expect.objectContaining({ url: `${site.url}/price`, kind: "blocked-page", error: `blocked by Cloudflare: HTTP 403 from ${site.url}/price` })]);
    expect(seen.changes).toEqual([]);
    expect(readDocuments(db, blocked.result.runId)).toEqual([]);
    expect(seen.run.creditsUsed).toBe(0);
    expect(blocked.result.credits).toBe(0);
    const payload = JSON.parse(hook.received[0]!.body);
    expect(payload.counts).toMatchObject({ changed: 0, failed: 1 });
    expect(payload.summary).toMatchObject({ changed: 0, error: 1, blocked: 1 });
    const text = checkCompletedText(payload);
    expect(text).toContain("1 failed (1 blocked)");
    expect(text).toContain(`• blocked: ${site.url}/price: blocked by Cloudflare`);

    blocking = false;
    const again = await runYaml(yaml, { db });
    if (!again.result.ok) throw new Error("invalid");
    expect(readRun(db, again.result.runId).changes.map((c) => c.change.changeStatus)).toEqual(["same"]);
  });

  it("fails a crawl whose start page is blocked with that cause", async () => {
    const db = join(workdir(), "c.db");
    const yaml = pipeline(`  - id: shop\n    retry: { attempts: 1 }\n    crawl: { url: "${site.url}/shop", limit: 5, crawlEntireDomain: true, scrapeOptions: { formats: [markdown, { type: changeTracking }] } }\n`);
    blocking = false;
    const first = await runYaml(yaml, { db });
    if (!first.result.ok) throw new Error("invalid");
    expect(readDocuments(db, first.result.runId).map((d) => d.url)).toContain(`${site.url}/price`);
    blocking = true;
    const blocked = await runYaml(yaml, { db });
    if (!blocked.result.ok) throw new Error("invalid");
    const seen = readRun(db, blocked.result.runId);
    expect(seen.steps[0]).toMatchObject({ status: "failed", documents: 0, creditsUsed: 0 });
    expect(seen.steps[0]!.error).toContain(`the crawl's start page was blocked by Cloudflare: HTTP 403 from ${site.url}/shop`);
    // The pages of the previous crawl are not reported removed because the site blocked us.
    expect(seen.changes).toEqual([]);
  });
});
