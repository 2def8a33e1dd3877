import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/cli.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
let price = "10 EUR";
let db = "";
let runs: number[] = [];

async function cli(args: string[], color = false) {
  let stdout = "";
  let stderr = "";
  const code = await runCli([...args, "--db", db], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: color, color });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  site.route("/price", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Price", `<p>Starter: ${price}</p><p>Pro: 30 EUR</p>`)));
  site.route("/static", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Static", "<p>never changes</p>")));
  await site.start();
  db = join(workdir(), "changes.db");
  const yaml = pipeline(["price", "static"].map((p) => `  - id: ${p}\n    scrape: { url: "${site.url}/${p}", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`).join(""));
  for (const next of ["10 EUR", "10 EUR", "12 EUR"]) {
    price = next;
    const { result } = await runYaml(yaml, { db });
    if (!result.ok) throw new Error("invalid");
    runs.push(result.runId);
  }
});
afterAll(() => site.stop());

describe("scrapeline changes", () => {
  it("lists the changed pages of the latest run with their diff, and --exit-code exits 1", async () => {
    const r = await cli(["changes", "--exit-code"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`run ${runs[2]}: 2 tracked page(s): 1 changed, 0 new, 0 removed, 0 hidden, 1 same`);
    expect(r.stdout).toContain(`changed  ${site.url}/price [price]`);
    expect(r.stdout).toContain("+Starter: 12 EUR");
    expect(r.stdout).not.toContain("/static");
  });

  it("exits 0 with --exit-code when nothing changed, and colours diffs on a terminal", async () => {
    const quiet = await cli(["changes", "--run", String(runs[1]), "--exit-code"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain("0 changed, 0 new");
    const coloured = await cli(["changes"], true);
    expect(coloured.stdout).toContain("\u001b[32m+Starter: 12 EUR\u001b[0m");
  });

  it("prints JSON with the counts and pages", async () => {
    const r = await cli(["changes", "--run", String(runs[0]), "--json"]);
    const report = JSON.parse(r.stdout);
    expect(report.counts).toMatchObject({ new: 2, changed: 0 });
    expect(report.pages.map((p: { url: string }) => p.url).sort()).toEqual([`${site.url}/price`, `${site.url}/static`]);
  });
});

describe("scrapeline history and diff", () => {
  it("lists a page's versions with the runs that saw them", async () => {
    const r = await cli(["history", `${site.url}/price`, "--json"]);
    const versions = JSON.parse(r.stdout);
    expect(versions.map((v: { version: number; firstRunId: number; lastRunId: number }) => [v.version, v.firstRunId, v.lastRunId])).toEqual([
      [1, runs[0], runs[1]],
      [2, runs[2], runs[2]],
    ]);
    const text = await cli(["history", `${site.url}/price`]);
    expect(text.stdout.split("\n")[0]).toMatch(/^version\s+status\s+first seen/);
  });

  it("diffs the last two versions, or the versions current in two runs", async () => {
    const last = await cli(["diff", `${site.url}/price`]);
    expect(last.code).toBe(0);
    expect(last.stdout).toContain("-Starter: 10 EUR");
    expect(last.stdout).toContain("+Starter: 12 EUR");
    const same = await cli(["diff", `${site.url}/price`, "--from", String(runs[0]), "--to", String(runs[1])]);
    expect(same.stderr).toContain("version 1 and version 1 are the same");
    const backwards = await cli(["diff", `${site.url}/price`, "--from", String(runs[2]), "--to", String(runs[0])]);
    expect(backwards.stdout).toContain("+Starter: 10 EUR");
  });

  it("reads a URL written another way as the same page: a trailing slash, no scheme, the host's case", async () => {
    const versions = JSON.parse((await cli(["history", `${site.url}/price`, "--json"])).stdout);
    const host = new URL(site.url).host;
    for (const written of [`${site.url}/price/`, `${host}/price`, `HTTP://${host.toUpperCase()}/price#top`]) {
      const r = await cli(["history", written, "--json"]);
      expect(r.stderr, written).toBe("");
      expect(JSON.parse(r.stdout)).toEqual(versions);
    }
    const diff = await cli(["diff", `${host}/price/`, "--json"]);
    expect(JSON.parse(diff.stdout)).toMatchObject({ url: `${site.url}/price`, from: { version: 1 }, to: { version: 2 } });
  });

  it("suggests the nearest stored pages when none matches", async () => {
    const r = await cli(["history", `${site.url}/prices`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no snapshots of ${site.url}/prices; the nearest pages with a history: ${site.url}/price, ${site.url}/static`);
    expect(r.stderr).not.toContain("changeTracking format first");
  });

  it("says clearly when a page has no history", async () => {
    const r = await cli(["diff", `${site.url}/nothing`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no snapshots of");
    const tagged = await cli(["history", `${site.url}/price`, "--tag", "other"]);
    expect(tagged.stderr).toContain("no snapshots");
  });
});
