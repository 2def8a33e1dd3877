import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliInProcess, runChild, startCli, waitForStderr } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-stop-"));
const PAGES = 12;

beforeAll(async () => {
  for (let i = 0; i < PAGES; i++) {
    // Slow enough that a run is still going when the test stops it.
    site.route(`/p${i}`, async (_req, res) => {
      await new Promise((r) => setTimeout(r, 150));
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, `<p>${"words ".repeat(400)}</p>`));
    });
  }
  await site.start();
});
afterAll(() => site.stop());

function pipelineFile(name: string): string {
  const file = join(dir, `${name}.yaml`);
  const urls = Array.from({ length: PAGES }, (_, i) => `"${site.url}/p${i}"`).join(", ");
  writeFileSync(file, `version: 1\nname: ${name}\nallowPrivateNetwork: true\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
  return file;
}

async function runRecords(db: string) {
  return JSON.parse((await cliInProcess(["runs", "--db", db, "--json"])).stdout) as Array<{ id: number; status: string; documents: number }>;
}

describe("an interrupted run", () => {
  it("prints the exact command that finishes it, and that command does", async () => {
    const file = pipelineFile("ctrlc");
    const db = join(dir, "ctrlc.db");
    const started = startCli(["run", file, "--db", db, "--concurrency", "1"]);
    await waitForStderr(started, /\] 200 /);
    started.child.kill("SIGINT");
    const stopped = await started.done;
    expect(stopped.code).toBe(130);
    const [run] = await runRecords(db);
    expect(run!.status).toBe("interrupted");
    const hint = `run ${run!.id} was interrupted; to finish it: scrapeline run ${file} --resume ${run!.id} --db ${db} --concurrency 1\n`;
    expect(stopped.stderr).toContain(hint);

    const words = hint.slice(hint.indexOf("scrapeline run ") + "scrapeline ".length).trim().split(" ");
    const resumed = await runChild(words);
    expect(resumed.code).toBe(0);
    expect(await runRecords(db)).toEqual([expect.objectContaining({ id: run!.id, status: "succeeded", documents: PAGES })]);
  });

  it("stops like Ctrl-C when its output is closed, and stays resumable", async () => {
    const file = pipelineFile("closed");
    const db = join(dir, "closed.db");
    const started = startCli(["run", file, "--db", db, "--concurrency", "1"]);
    await waitForStderr(started, /\] 200 /);
    // The reader of the progress lines goes away, as `scrapeline run … 2>&1 | head -3` does.
    started.child.stderr!.destroy();
    const stopped = await started.done;
    expect(stopped.code).toBe(130);
    const [run] = await runRecords(db);
    expect(run!.status).toBe("interrupted");
    expect(run!.documents).toBeLessThan(PAGES);
  });

  it("finishes quietly when nobody reads its summary", async () => {
    const file = pipelineFile("nosummary");
    const db = join(dir, "nosummary.db");
    const started = startCli(["run", file, "--db", db]);
    started.child.stdout!.destroy();
    const finished = await started.done;
    expect(finished.stderr).not.toMatch(/EPIPE|internal error|at .*\.js:\d+/);
    expect(finished.code).toBe(0);
    expect((await runRecords(db))[0]!.status).toBe("succeeded");
  });
});

describe("a reader that stops early", () => {
  it.each([[["export", "--format", "jsonl"]], [["export", "--format", "json"]], [["export", "--format", "csv"]], [["changes", "--json"]], [["runs"]]])("ends %j quietly with exit 0", async (args) => {
    const db = join(dir, "ctrlc.db");
    const started = startCli([...args, "--db", db]);
    started.child.stdout!.destroy();
    const finished = await started.done;
    expect(finished.stderr).toBe("");
    expect(finished.code).toBe(0);
  });
});
