import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/cli.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runYaml } from "../run/helpers.js";

async function cli(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, color: false });
  return { code, stdout, stderr };
}

const site = new FixtureSite();
let db = "";
let runId = 0;

beforeAll(async () => {
  site.page("/a", htmlPage("Alpha, \"quoted\"", "<p>alpha body</p>")).page("/b", htmlPage("Beta", "<p>beta body</p>"));
  await site.start();
  const { result, db: path } = await runYaml(`version: 1\nname: hist\nsteps:\n  - id: pages\n    scrape: { urls: ["${site.url}/a", "${site.url}/b"] }\n  - id: missing\n    needs: [pages]\n    scrape: { url: "${site.url}/nope" }\n`);
  if (!result.ok) throw new Error("invalid fixture pipeline");
  db = path;
  runId = result.runId;
});
afterAll(() => site.stop());

describe("runs, show and export", () => {
  it("lists runs as a table and as JSON", async () => {
    const text = await cli(["runs", "--db", db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^id\s+pipeline\s+status/);
    expect(text.stdout).toContain("hist");
    // The start time begins under its header.
    const [header, row] = text.stdout.split("\n") as [string, string];
    expect(row.slice(header.indexOf("started"))).toMatch(/^\d{4}-\d\d-\d\dT/);
    const json = JSON.parse((await cli(["runs", "--db", db, "--json"])).stdout);
    expect(json[0]).toMatchObject({ id: runId, pipelineName: "hist", status: "succeeded", documents: 3, creditsUsed: 3 });
  });

  it("shows the latest run with its steps", async () => {
    const r = await cli(["show", "latest", "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`run ${runId} of hist`);
    expect(r.stdout).toMatch(/pages\s+scrape\s+succeeded\s+2/);
    const json = JSON.parse((await cli(["show", String(runId), "--db", db, "--json"])).stdout);
    expect(json.steps.map((s: { stepId: string }) => s.stepId)).toEqual(["pages", "missing"]);
  });

  it("says clearly when a run does not exist", async () => {
    const r = await cli(["show", "999", "--db", db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: no run 999 in this database\n");
  });

  it("exports json and jsonl in the Document shape", async () => {
    const json = JSON.parse((await cli(["export", "--db", db, "--format", "json", "--step", "pages"])).stdout);
    expect(json).toHaveLength(2);
    expect(json[0]).toMatchObject({ markdown: expect.stringContaining("alpha body"), metadata: { statusCode: 200, sourceURL: `${site.url}/a` } });
    const lines = (await cli(["export", "--db", db, "--format", "jsonl"])).stdout.trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).metadata.statusCode)).toEqual([200, 200, 404]);
  });

  it("exports CSV with quoting", async () => {
    const csv = (await cli(["export", "--db", db, "--format", "csv", "--step", "pages"])).stdout;
    expect(csv.split("\r\n")[0]).toBe("step,url,status,title");
    // Without --step, the step column tells which step stored each page.
    const all = (await cli(["export", "--db", db, "--format", "csv"])).stdout.split("\r\n");
    expect(all.slice(1).filter(Boolean).map((l) => l.split(",")[0])).toEqual(["pages", "pages", "missing"]);
    expect(csv).toContain(`pages,${site.url}/a,200,"Alpha, ""quoted"""`);
  });

  it("exports one markdown file per page with front matter", async () => {
    const out = mkdtempSync(join(tmpdir(), "scrapeline-md-"));
    const r = await cli(["export", "--db", db, "--format", "markdown", "--out", out, "--step", "pages"]);
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(2);
    const text = readFileSync(join(out, files[0]!), "utf8");
    expect(text).toMatch(/^---\nurl: "http:\/\/127\.0\.0\.1:\d+\/a"\nstep: "pages"\nstatus: 200\n/);
    expect(text).toContain("alpha body");
    expect((await cli(["export", "--db", db, "--format", "markdown"])).stderr).toContain("give a directory with --out");
  });

  it("run --json prints the summary and exits by the run's status", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "scrapeline-runjson-")), "p.yaml");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, `version: 1\nname: j\nsteps:\n  - id: a\n    scrape: { url: "${site.url}/a", maxAge: 0 }\n`);
    const r = await cli(["run", file, "--db", db, "--allow-private-network", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "succeeded", credits: 1, steps: [{ id: "a", status: "succeeded", documents: 1, failed: 0, credits: 1 }] });
    const refused = await cli(["run", file, "--db", db, "--json"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).steps[0]).toMatchObject({ status: "failed", failed: 1 });
  });

  it("run reports an invalid pipeline with exit 2 and a bad --var", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "scrapeline-runbad-")), "p.yaml");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, `version: 1\nname: j\nsteps:\n  - id: a\n    scrape: { url: "\${TARGET}" }\n`);
    const invalid = await cli(["run", file, "--db", db]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("error[unset-variable]");
    const withVar = await cli(["run", file, "--db", db, "--allow-private-network", "--var", `TARGET=${site.url}/b`, "--json"]);
    expect(withVar.code).toBe(0);
    expect((await cli(["run", file, "--var", "novalue"])).code).toBe(2);
  });
});
