import { afterEach, describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { pipeline, readDocuments, runYaml } from "../run/helpers.js";
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
    const [moved] = readDocuments(db, result.runId, "next");
    expect(moved?.url).toBe(`${site.url}/list/1`);
    expect(moved?.document.metadata.url).toBe(`${site.url}/list/2`);
    expect(moved?.document.markdown).toContain("Item 2-a");
    expect(moved?.document.markdown).toContain("Extra on page 2");
    expect(moved?.document.markdown).not.toContain("Item 1-a");
    expect(moved?.document.actions?.scrapes?.[0]?.html).toContain("Extra on page 1");
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
