import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { cliChild, finish, pipeline, readDocuments, runYaml } from "../run/helpers.js";
import { addPagedList, MembersSite } from "./members-site.js";

const sites: MembersSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.stop()));
});

async function listSite(): Promise<MembersSite> {
  const site = await new MembersSite().start();
  sites.push(site);
  addPagedList(site);
  return site;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const listStep = (site: MembersSite, extra = "") => `  - id: list
    scrape: { urls: ["${site.url}/list/1", "${site.url}/list/2", "${site.url}/list/3"]${extra} }
`;

function idsOf(db: string, runId: number, stepId: string): Map<string, string> {
  return new Map(readDocuments(db, runId, stepId).map((d) => [new URL(d.url).pathname, d.document.metadata.scrapeId as string]));
}

describe("scrapeId of a pipeline's scrape pages", () => {
  it("is in every page's metadata, one per page, the same in the next run, and leaves unchanged pages deduplicated", async () => {
    const site = await listSite();
    // Fetched afresh each time (maxAge 0): a page answered from the cache carries its cachedAt.
    const first = await runYaml(pipeline(listStep(site, ", maxAge: 0")));
    expect(first.result.ok && first.result.status).toBe("succeeded");
    const second = await runYaml(pipeline(listStep(site, ", maxAge: 0")), { db: first.db });
    if (!first.result.ok || !second.result.ok) throw new Error("the runs failed");
    const before = idsOf(first.db, first.result.runId, "list");
    const after = idsOf(first.db, second.result.runId, "list");
    expect([...before.keys()].sort()).toEqual(["/list/1", "/list/2", "/list/3"]);
    for (const id of before.values()) expect(id).toMatch(UUID);
    expect(new Set(before.values()).size).toBe(3);
    expect(after).toEqual(before);
    // Unchanged pages stored again add nothing: the step's manifest (every page's document hash) is the same blob in both runs.
    const sqlite = new Database(first.db, { readonly: true });
    const manifests = sqlite.prepare("SELECT manifest FROM step_runs WHERE step_id = 'list' ORDER BY run_id").pluck().all() as string[];
    sqlite.close();
    expect(manifests).toHaveLength(2);
    expect(manifests[0]).toBeTruthy();
    expect(manifests[1]).toBe(manifests[0]);
  });

  it("interact's scrapeIds pick the pages it carries on from; ids of no stored page are warned about", async () => {
    const site = await listSite();
    const first = await runYaml(pipeline(listStep(site)));
    if (!first.result.ok) throw new Error("the scrape failed");
    const second = idsOf(first.db, first.result.runId, "list").get("/list/2")!;
    const unknown = "00000000-0000-8000-8000-000000000000";
    const steps = `${listStep(site)}  - id: more
    interact: { from: list, scrapeIds: ["${second.toUpperCase()}", "${unknown}"], actions: [{ type: click, selector: "#more" }] }
`;
    const { result, db, events } = await runYaml(pipeline(steps), { db: first.db });
    expect(result.ok && result.status).toBe("succeeded");
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId, "more");
    expect(docs.map((d) => new URL(d.url).pathname)).toEqual(["/list/2"]);
    expect(docs[0]?.document.markdown).toContain("Extra on page 2");
    const warning = events.find((e) => e.type === "step-warning" && e.stepId === "more");
    expect(warning?.type === "step-warning" && warning.message).toContain(`1 scrapeId(s) name no page scrape step "list" stored in this run, skipped: ${unknown}`);
  });

  it("interact fails, saying where the ids are listed, when none of its scrapeIds is a stored page", async () => {
    const site = await listSite();
    const steps = `${listStep(site)}  - id: more
    interact: { from: list, scrapeIds: ["00000000-0000-8000-8000-000000000000"], actions: [{ type: click, selector: "#more" }] }
`;
    const { result, events } = await runYaml(pipeline(steps));
    expect(result.ok && result.status).toBe("failed");
    const failed = events.find((e) => e.type === "step-finished" && e.stepId === "more");
    expect(JSON.stringify(failed)).toContain("none of the scrapeIds of interact step \\\"more\\\" is a page scrape step \\\"list\\\" stored in this run");
  });

  it("a scrapeId that is not one is reported at its place in the file", () => {
    const loaded = loadPipelineText("p.yaml", pipeline(`  - id: list\n    scrape: { url: https://example.com/ }\n  - id: more\n    interact: { from: list, scrapeIds: [page-2], actions: [{ type: click, selector: a }] }\n`));
    expect(loaded.pipeline).toBeUndefined();
    expect(loaded.diagnostics[0]).toMatchObject({ file: "p.yaml", line: 8, severity: "error" });
  });

  it("`scrapeline show` lists each scraped page's scrapeId, and --json has them", async () => {
    const site = await listSite();
    const { result, db } = await runYaml(pipeline(listStep(site)));
    if (!result.ok) throw new Error("the scrape failed");
    const ids = idsOf(db, result.runId, "list");
    const text = await finish(cliChild(["show", String(result.runId), "--db", db]));
    expect(text.code).toBe(0);
    expect(text.out).toContain("scrapes:");
    for (const [path, id] of ids) expect(text.out).toContain(`[list] ${id}  ${site.url}${path}`);
    const json = await finish(cliChild(["show", String(result.runId), "--db", db, "--json"]));
    const detail = JSON.parse(json.out) as { scrapes: Array<{ stepId: string; url: string; scrapeId: string }> };
    expect(detail.scrapes.map((s) => s.scrapeId).sort()).toEqual([...ids.values()].sort());
  });
});
