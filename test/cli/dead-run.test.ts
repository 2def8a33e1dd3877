import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliInProcess, runChild, startCli, waitForStderr } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-dead-"));
const PAGES = 8;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  for (let i = 0; i < PAGES; i++) {
    site.route(`/p${i}`, async (_req, res) => {
      await new Promise((r) => setTimeout(r, 150));
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Page ${i}`, "<p>body</p>"));
    });
  }
  // Answers only when the test releases it: the run is surely still going until then.
  site.route("/held", async (_req, res) => {
    await held;
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Held", "<p>body</p>"));
  });
  await site.start();
});
afterAll(() => site.stop());

describe("a run whose process was killed", () => {
  it("reads interrupted in runs and show, with the command that finishes it", async () => {
    const file = join(dir, "killed.yaml");
    const db = join(dir, "killed.db");
    const urls = Array.from({ length: PAGES }, (_, i) => `"${site.url}/p${i}"`).join(", ");
    writeFileSync(file, `version: 1\nname: killed\nallowPrivateNetwork: true\nconcurrency: 1\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
    const started = startCli(["run", file, "--db", db]);
    await waitForStderr(started, /\] 200 /);
    started.child.kill("SIGKILL");
    const killed = await started.done;
    expect(killed.signal).toBe("SIGKILL");
    const pid = started.child.pid!;

    const [run] = JSON.parse((await cliInProcess(["runs", "--db", db, "--json"])).stdout);
    expect(run).toMatchObject({ status: "interrupted", owner: { pid } });
    const hint = `to finish it: scrapeline run ${file} --resume ${run.id} --db ${db}\n`;

    const shown = await cliInProcess(["show", String(run.id), "--db", db]);
    expect(shown.stdout).toContain(`run ${run.id} of killed (${file}): interrupted\n`);
    expect(shown.stdout).toContain(`error: the process running it (pid ${pid} on `);
    expect(shown.stdout).toContain(hint);
    expect((await cliInProcess(["runs", "--db", db])).stdout).toContain(hint);

    const resumed = await runChild(["run", file, "--resume", String(run.id), "--db", db]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse((await cliInProcess(["show", String(run.id), "--db", db, "--json"])).stdout).run).toMatchObject({ status: "succeeded", documents: PAGES });
  });

  it("cannot be resumed while its process still runs it", async () => {
    const file = join(dir, "alive.yaml");
    const db = join(dir, "alive.db");
    const urls = `"${site.url}/p0", "${site.url}/held"`;
    writeFileSync(file, `version: 1\nname: alive\nallowPrivateNetwork: true\nconcurrency: 1\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
    const started = startCli(["run", file, "--db", db]);
    await waitForStderr(started, /\] 200 /);
    const second = await runChild(["run", file, "--resume", "--db", db]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is still running (process ${started.child.pid})`);
    started.child.kill("SIGINT");
    await waitForStderr(started, /stopping: waiting for pages in flight/);
    release();
    expect((await started.done).code).toBe(130);
  });
});
