import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMonitors } from "../../src/app/monitor/monitors.js";
import { watch } from "../../src/app/monitor/watch.js";
import { cliInProcess } from "../cli/child.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";

const site = new FixtureSite();
beforeAll(async () => {
  site.route("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", "<p>hello</p>")));
  await site.start();
});
afterAll(() => site.stop());

const pipelineText = (name: string) => `version: 1\nname: ${name}\nallowPrivateNetwork: true\nschedule: { every: 1s, minIntervalSeconds: 1 }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page" }\n`;

/** Waits until a line matches `pattern`, or until the lines pass `seen`. */
async function until(lines: string[], pattern: RegExp | ((lines: string[]) => boolean)): Promise<void> {
  const seen = typeof pattern === "function" ? pattern : (all: string[]) => all.some((l) => pattern.test(l));
  const limit = Date.now() + 20_000;
  while (!seen(lines)) {
    if (Date.now() > limit) throw new Error(`no ${pattern} in:\n${lines.join("\n")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("watch: pipeline files that leave the watched paths", () => {
  it("a removed file, a renamed pipeline and a file left between two calls are marked removed, not due", async () => {
    const dir = join(workdir(), "pipelines");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.yaml"), pipelineText("alpha"));
    writeFileSync(join(dir, "b.yaml"), pipelineText("beta"));
    writeFileSync(join(dir, "c.yaml"), pipelineText("gamma"));
    const db = join(dir, "..", "w.db");
    const lines: string[] = [];
    await watch({ paths: [dir], db, once: true, log: (l) => lines.push(l) });
    expect(listMonitors(db).map((m) => [m.name, m.status])).toEqual([["alpha", "scheduled"], ["beta", "scheduled"], ["gamma", "scheduled"]]);

    // While nothing watches: b.yaml is deleted, c.yaml's pipeline renamed.
    rmSync(join(dir, "b.yaml"));
    writeFileSync(join(dir, "c.yaml"), pipelineText("delta"));
    await watch({ paths: [dir], db, once: true, log: (l) => lines.push(l) });
    const listed = listMonitors(db);
    expect(listed.map((m) => [m.name, m.status])).toEqual([["alpha", "scheduled"], ["beta", "removed"], ["delta", "scheduled"], ["gamma", "removed"]]);
    expect(listed.find((m) => m.name === "beta")).toMatchObject({ nextDue: null, removedAt: expect.any(String) });
    expect(lines.filter((l) => / monitor\.gone /.test(l)).map((l) => / monitor=(\S+)/.exec(l)![1])).toEqual(["beta", "gamma"]);

    const table = await cliInProcess(["monitors", "--db", db]);
    expect(table.stdout).toMatch(/\nbeta\s+every 1s UTC\s+removed\s/);
    expect(table.stdout).toMatch(/\nalpha\s+every 1s UTC\s+\d{4}-/);
    const one = await cliInProcess(["monitors", "beta", "--db", db]);
    expect(one.stdout).toMatch(/^beta \(\S+b\.yaml\): every 1s UTC, removed \S+Z/);

    // The file comes back: scheduled again, with its checks.
    writeFileSync(join(dir, "b.yaml"), pipelineText("beta"));
    await watch({ paths: [dir], db, once: true, log: (l) => lines.push(l) });
    expect(listMonitors(db).find((m) => m.name === "beta")?.status).toBe("scheduled");
  });

  it("a file named on the command line and renamed while watch runs stops running", async () => {
    const dir = workdir();
    const file = join(dir, "solo.yaml");
    writeFileSync(file, pipelineText("solo"));
    // A second pipeline on the same schedule, whose checks show the slots going by.
    const clock = join(dir, "clock.yaml");
    writeFileSync(clock, pipelineText("clock"));
    const db = join(dir, "w.db");
    const lines: string[] = [];
    const stop = new AbortController();
    const done = watch({ paths: [file, clock], db, maxParallel: 1, stop: stop.signal, log: (l) => lines.push(l), reloadMs: 100 });
    try {
      await until(lines, /check\.completed monitor=solo /);
      renameSync(file, join(dir, "solo.yaml.off"));
      await until(lines, /monitor\.gone monitor=solo /);
      const goneAt = lines.findIndex((l) => / monitor\.gone /.test(l));
      // Two more one-second slots pass (the other pipeline is checked twice): no check of it starts after it is gone.
      await until(lines, (after) => after.slice(goneAt + 1).filter((l) => /check\.completed monitor=clock /.test(l)).length >= 2);
      const startedAfter = lines.slice(goneAt + 1).filter((l) => /check\.started monitor=solo /.test(l));
      expect(startedAfter).toEqual([]);
      expect(lines.some((l) => /file\.removed file=\S+solo\.yaml$/.test(l))).toBe(true);
      expect(listMonitors(db).find((m) => m.name === "solo")).toEqual(expect.objectContaining({ status: "removed", nextDue: null }));
    } finally {
      stop.abort();
      await done;
    }
  });
});
