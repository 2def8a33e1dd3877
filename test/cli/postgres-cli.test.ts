// The CLI on PostgreSQL, end to end: the demo pipeline run twice with --db postgres://…, then runs,
// show, export and changes read it back; the URL's password is in no output.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { EDIT, startSite } from "../../scripts/demo-site.mjs";
import { writeFileSync } from "node:fs";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { freshDatabase, postgresMissing, postgresPassword } from "../helpers/postgres.js";
import { workdir } from "../run/helpers.js";
import { startCli, waitForStderr } from "./child.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL CLI tests skipped: ${missing}`);

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (asynchronously: the demo site answers from this process). */
function scrapeline(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "dist/cli/main.js"), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", SCRAPELINE_DB: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(missing !== undefined)("scrapeline on PostgreSQL", () => {
  let site: { url: string; edit(): void; close(): Promise<void> };
  let db: string;
  let password: string;
  const outputs: string[] = [];
  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const outcome = await scrapeline(args, env);
    outputs.push(outcome.stdout, outcome.stderr);
    return outcome;
  };
  const demoRun = () => cli(["run", "pipelines/demo.yaml", "--allow-private-network", "--db", db, "--var", `SCRAPELINE_DEMO_URL=${site.url}`]);

  beforeAll(async () => {
    site = await startSite({ port: 0 });
    db = await freshDatabase();
    password = postgresPassword();
  });
  afterAll(() => site?.close());

  it("runs the demo twice, and runs, show, export and changes read the runs back", async () => {
    const first = await demoRun();
    expect(first.code, first.stderr).toBe(0);
    site.edit();
    const second = await demoRun();
    expect(second.code, second.stderr).toBe(0);

    const runs = await cli(["runs", "--db", db, "--json"]);
    expect(runs.code, runs.stderr).toBe(0);
    const listed = JSON.parse(runs.stdout) as Array<{ id: number; status: string; pipelineName: string; resumeWords: string[] }>;
    // Kept with the run, printed by every hint that tells how to finish it: the URL without its password.
    const withoutPassword = new URL(db);
    withoutPassword.password = "";
    expect(listed[0]!.resumeWords).toEqual(["pipelines/demo.yaml", "--db", withoutPassword.toString(), "--var", `SCRAPELINE_DEMO_URL=${site.url}`, "--allow-private-network"]);
    expect(listed.map((r) => [r.id, r.status])).toEqual([
      [2, "succeeded"],
      [1, "succeeded"],
    ]);

    const show = await cli(["show", "2", "--db", db]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^run 2 of demo \(.*demo\.yaml\): succeeded/);

    const exported = await cli(["export", "--db", db, "--run", "2", "--format", "jsonl"]);
    expect(exported.code, exported.stderr).toBe(0);
    const pages = exported.stdout.trim().split("\n").map((line) => JSON.parse(line) as { metadata: { url: string } });
    expect(pages.length).toBeGreaterThan(6);
    expect(pages.map((p) => p.metadata.url)).toContain(`${site.url}${EDIT.path}`);

    // The same database, named by SCRAPELINE_DATABASE_URL.
    const changes = await cli(["changes", "--run", "2", "--json"], { SCRAPELINE_DATABASE_URL: db });
    expect(changes.code, changes.stderr).toBe(0);
    const report = JSON.parse(changes.stdout) as { counts: Record<string, number>; pages: Array<{ url: string; changeStatus: string; diff?: string }> };
    expect(report.counts).toMatchObject({ new: 0, same: 5, changed: 1 });
    const changed = report.pages.filter((p) => p.changeStatus === "changed");
    expect(changed.map((p) => p.url)).toEqual([`${site.url}${EDIT.path}`]);
    expect(changed[0]!.diff).toContain("+Price: £12.00 · In stock");

    const history = await cli(["history", `${site.url}${EDIT.path}`, "--tag", "demo", "--db", db, "--json"]);
    expect(history.code, history.stderr).toBe(0);
    expect((JSON.parse(history.stdout) as unknown[]).length).toBe(2);

    for (const output of outputs) expect(output).not.toContain(password);
  });

  it("says it cannot sign in, with the password hidden, when the password is wrong", async () => {
    const wrong = new URL(db);
    wrong.password = "Wr0ng-Passw0rd";
    const outcome = await cli(["runs", "--db", wrong.toString()]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(`cannot sign in to the database postgres://postgres:***@${wrong.host}${wrong.pathname}`);
    expect(outcome.stdout + outcome.stderr).not.toContain("Wr0ng-Passw0rd");
  });

  it("lists monitors and teams on PostgreSQL too (none yet), with the password hidden", async () => {
    const monitors = await cli(["monitors", "--db", db, "--json"]);
    expect(monitors.code, monitors.stderr).toBe(0);
    expect(JSON.parse(monitors.stdout)).toEqual([]);
    const teams = await cli(["teams", "list", "--db", db, "--json"]);
    expect(teams.code, teams.stderr).toBe(0);
    expect(JSON.parse(teams.stdout)).toEqual([]);
    expect(monitors.stderr + teams.stderr).not.toContain(password);
  });

  it("prints the command that finishes an interrupted run without the password, and with PGPASSWORD that command finishes it", async () => {
    const slow = new FixtureSite();
    const PAGES = 10;
    for (let i = 0; i < PAGES; i++) {
      // Slow enough that the run is still going when the test stops it.
      slow.route(`/p${i}`, async (_req, res) => {
        await new Promise((r) => setTimeout(r, 150));
        res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>${"words ".repeat(300)}</p>`));
      });
    }
    await slow.start();
    try {
      const file = join(workdir(), "stop.yaml");
      const urls = Array.from({ length: PAGES }, (_, i) => `"${slow.url}/p${i}"`).join(", ");
      writeFileSync(file, `version: 1\nname: stop\nallowPrivateNetwork: true\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
      const started = startCli(["run", file, "--db", db, "--concurrency", "1"], { env: { SCRAPELINE_DB: "" } });
      await waitForStderr(started, /\] 200 /);
      started.child.kill("SIGINT");
      const stopped = await started.done;
      outputs.push(stopped.stdout, stopped.stderr);
      expect(stopped.code, stopped.stderr).toBe(130);
      const withoutPassword = new URL(db);
      withoutPassword.password = "";
      const hint = new RegExp(`run (\\d+) was interrupted; to finish it: scrapeline run ${file} --resume \\d+ --db '?${withoutPassword.toString().replace(/[.?]/g, "\\$&")}'? --concurrency 1\n`);
      expect(stopped.stderr).toMatch(hint);
      const id = Number(hint.exec(stopped.stderr)![1]);
      const resumed = await cli(["run", file, "--resume", String(id), "--db", withoutPassword.toString(), "--concurrency", "1"], { PGPASSWORD: password });
      expect(resumed.code, resumed.stderr).toBe(0);
      const show = await cli(["show", String(id), "--db", db, "--json"]);
      expect(JSON.parse(show.stdout).run).toMatchObject({ id, status: "succeeded", documents: PAGES });
      for (const output of outputs) expect(output).not.toContain(password);
    } finally {
      await slow.stop();
    }
  });

  it("converts the pages a run kept again with --from-run, with the site gone, into the same documents", async () => {
    const fresh = await freshDatabase();
    const gone = await startSite({ port: 0 });
    const live = await cli(["run", "pipelines/demo.yaml", "--allow-private-network", "--db", fresh, "--var", `SCRAPELINE_DEMO_URL=${gone.url}`]);
    await gone.close();
    expect(live.code, live.stderr).toBe(0);
    const again = await cli(["run", "pipelines/demo.yaml", "--allow-private-network", "--db", fresh, "--var", `SCRAPELINE_DEMO_URL=${gone.url}`, "--from-run", "latest"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("converting the pages run 1 stored");
    const show = await cli(["show", "2", "--db", fresh]);
    expect(show.stdout).toContain("made from the pages run 1 stored");
    const documents: string[] = [];
    for (const id of ["1", "2"]) {
      const exported = await cli(["export", "--db", fresh, "--run", id, "--format", "jsonl"]);
      expect(exported.code, exported.stderr).toBe(0);
      documents.push(exported.stdout.replace(/"scrapeId":"[^"]+"/g, '"scrapeId":"…"'));
    }
    // The same pages a second time: tracked as unchanged since the first.
    expect(documents[1]).toContain('"changeStatus":"same"');
    expect(documents[1]).not.toContain('"changeStatus":"new"');
    for (const [i, text] of documents.entries()) documents[i] = text.replace(/,"changeTracking":\{[^}]*\}/g, "");
    expect(documents[0]!.trim().split("\n").length).toBeGreaterThan(6);
    expect(documents[1]).toBe(documents[0]);
    for (const output of outputs) expect(output).not.toContain(password);
  });

  it("exports the same documents and reports the same changes as the SQLite store after the same run", async () => {
    const fresh = await freshDatabase();
    const file = join(workdir(), "same.db");
    const other = await startSite({ port: 0 });
    try {
      const exports: string[] = [];
      const reports: string[] = [];
      for (const target of [file, fresh]) {
        const ran = await cli(["run", "pipelines/demo.yaml", "--allow-private-network", "--db", target, "--var", `SCRAPELINE_DEMO_URL=${other.url}`]);
        expect(ran.code, ran.stderr).toBe(0);
        const exported = await cli(["export", "--db", target, "--format", "jsonl"]);
        expect(exported.code, exported.stderr).toBe(0);
        // A page's scrapeId is its own each time it is fetched.
        exports.push(exported.stdout.replace(/"scrapeId":"[^"]+"/g, '"scrapeId":"…"'));
        const changes = await cli(["changes", "--db", target, "--json"]);
        expect(changes.code, changes.stderr).toBe(0);
        reports.push(changes.stdout);
      }
      expect(exports[0]!.split("\n").length).toBeGreaterThan(6);
      expect(exports[1]).toBe(exports[0]);
      expect(reports[1]).toBe(reports[0]);
    } finally {
      await other.close();
    }
  });
});

