import { writeFileSync } from "node:fs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorChecks } from "../../src/app/monitor/monitors.js";
import { watch } from "../../src/app/monitor/watch.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";

/** In-process `watch` on one-second schedules, with pages that hang until the test lets them go. */
const site = new FixtureSite();
const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
const gate = (name: string) => {
  let open = () => {};
  const promise = new Promise<void>((r) => (open = r));
  gates.set(name, { promise, open });
};
const openGate = (name: string) => gates.get(name)?.open();

beforeAll(async () => {
  site.route("/a", async (_req, res) => {
    await gates.get("a")?.promise;
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("A", "<p>a</p>"));
  });
  site.route("/b", async (_req, res) => {
    await gates.get("b")?.promise;
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("B", "<p>b</p>"));
  });
  await site.start();
});
afterAll(async () => {
  for (const g of gates.values()) g.open();
  await site.stop();
});

const pipelineText = (name: string, path: string, extra = "") => `version: 1\nname: ${name}\nallowPrivateNetwork: true\nschedule: { every: 1s, minIntervalSeconds: 1 }\n${extra}steps:\n  - id: page\n    scrape: { url: "${site.url}${path}" }\n`;

function start(files: Record<string, string>, maxParallel: number) {
  const dir = join(workdir(), "pipelines");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const db = join(dir, "..", "w.db");
  const lines: string[] = [];
  const stop = new AbortController();
  const done = watch({ paths: [dir], db, maxParallel, stop: stop.signal, log: (l) => lines.push(l), reloadMs: 200 });
  const until = async (pattern: RegExp, count = 1) => {
    const limit = Date.now() + 20_000;
    while (lines.filter((l) => pattern.test(l)).length < count) {
      if (Date.now() > limit) throw new Error(`no ${count}× ${pattern} in:\n${lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { dir, db, lines, stop, done, until };
}

describe("watch loop", () => {
  it("never overlaps a pipeline with itself, and runs at most --max-parallel checks at once", async () => {
    gate("a");
    gate("b");
    const w = start({ "a.yaml": pipelineText("alpha", "/a"), "b.yaml": pipelineText("beta", "/b") }, 1);
    await w.until(/check\.started monitor=(alpha|beta)/);
    const first = /monitor=(\w+)/.exec(w.lines.find((l) => l.includes("check.started"))!)![1]!;
    const other = first === "alpha" ? "beta" : "alpha";
    // Its next slots come while it still runs: recorded as skipped_overlap; the other waits for the place.
    await w.until(new RegExp(`check\\.skipped_overlap monitor=${first}`), 2);
    expect(w.lines.some((l) => l.includes(`check.started monitor=${other}`))).toBe(false);
    openGate("a");
    openGate("b");
    await w.until(new RegExp(`check\\.completed monitor=${other}`));
    w.stop.abort();
    await w.done;
    const statuses = monitorChecks(w.db, first).checks.map((c) => c.status);
    expect(statuses).toContain("skipped_overlap");
    expect(statuses).toContain("completed");
  });

  it("a stop lets the page in flight finish, leaves the check interrupted, and the next start resumes it", async () => {
    gate("a");
    gates.delete("b");
    const two = `version: 1\nname: pair\nallowPrivateNetwork: true\nconcurrency: 1\nschedule: { every: 1s, minIntervalSeconds: 1 }\nsteps:\n  - id: page\n    scrape: { urls: ["${site.url}/a", "${site.url}/b"] }\n`;
    const hitsA = site.hits.get("/a") ?? 0;
    const w = start({ "pair.yaml": two }, 2);
    await w.until(/check\.started monitor=pair/);
    while ((site.hits.get("/a") ?? 0) === hitsA) await new Promise((r) => setTimeout(r, 20));
    const hitsB = site.hits.get("/b") ?? 0;
    w.stop.abort();
    openGate("a");
    await w.done;
    expect(w.lines.join("\n")).toMatch(/check\.interrupted monitor=pair check=1 run=1 pages=1/);
    expect(site.hits.get("/b") ?? 0).toBe(hitsB);
    const lines: string[] = [];
    await watch({ paths: [w.dir], db: w.db, once: true, log: (l) => lines.push(l) });
    // A slot that comes while the resumed check runs (a busy machine) is skipped as an overlap, between the two.
    const checks = lines.filter((l) => !/ check\.skipped_overlap monitor=pair /.test(l));
    expect(checks.join("\n")).toMatch(/check\.resumed monitor=pair check=1 slot=\S+ run=1\n\S+ check\.completed monitor=pair check=1 run=1 pages=2/);
  });

  it("re-reads a changed file; one that stops validating keeps its last good version and says why", async () => {
    gates.delete("a");
    const w = start({ "a.yaml": pipelineText("alpha", "/a") }, 2);
    await w.until(/check\.completed monitor=alpha/);
    writeFileSync(join(w.dir, "a.yaml"), pipelineText("alpha", "/a").replace("every: 1s", "every: 1 s, timezone: Mars/Base"));
    await w.until(/file\.invalid/);
    expect(w.lines.find((l) => l.includes("file.invalid"))).toMatch(/at=\S*a\.yaml:4:\d+ error="unknown-timezone: unknown time zone \\"Mars\/Base\\""/);
    // Still running on the last good version.
    const before = w.lines.filter((l) => l.includes("check.completed")).length;
    await w.until(/check\.completed monitor=alpha/, before + 1);
    writeFileSync(join(w.dir, "a.yaml"), pipelineText("alpha", "/a").replace("every: 1s", "every: 2s"));
    await w.until(/file\.reloaded file=\S*a\.yaml/);
    w.stop.abort();
    await w.done;
  });
});
