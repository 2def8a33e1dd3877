import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliInProcess, runChild } from "../cli/child.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";

const site = new FixtureSite();
beforeAll(async () => {
  site.route("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Page", "<p>hello</p>")));
  await site.start();
});
afterAll(() => site.stop());

describe("scrapeline watch --once and scrapeline monitors", () => {
  it("registers on the first call and runs its baseline check at once, and lists what it found", async () => {
    const dir = workdir();
    mkdirSync(join(dir, "pipelines"));
    writeFileSync(join(dir, "pipelines", "hello.yaml"), `version: 1\nname: hello\nschedule: { every: 1s, minIntervalSeconds: 1 }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking }] }\n`);
    const db = join(dir, "w.db");
    const args = ["watch", join(dir, "pipelines"), "--db", db, "--once", "--allow-private-network"];

    const first = await runChild(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\S+Z file\.added file=\S+hello\.yaml$/m);
    expect(first.stdout).toMatch(/check\.started monitor=hello check=1 slot=\S+ note="first check: baseline"$/m);
    expect(first.stdout).toMatch(/check\.completed monitor=hello check=1 run=1 pages=1 changed=0 new=1/);

    const listed = await cliInProcess(["monitors", "--db", db]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^name\s+schedule\s+next due\s+last check\s+status\s+found\s+notify/);
    expect(listed.stdout).toMatch(/hello\s+every 1s UTC\s+\S+\s+\S+\s+completed\s+0 changed, 1 new, 0 removed\s+ok/);
    // Each value starts under its header.
    const [header, row] = listed.stdout.split("\n") as [string, string];
    for (const [title, value] of [["last check", /\d{4}-\S+Z/], ["status", /completed/], ["found", /0 changed/], ["notify", /ok$/]] as const) {
      expect(row.slice(header.indexOf(title)), title).toMatch(new RegExp(`^${value.source}`));
    }
    const json = JSON.parse((await cliInProcess(["monitors", "--db", db, "--json"])).stdout);
    expect(json).toEqual([expect.objectContaining({ name: "hello", source: "file", schedule: "every 1s", lastCheck: expect.objectContaining({ status: "completed", summary: { totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 } }) })]);
    const one = await cliInProcess(["monitors", "hello", "--db", db]);
    expect(one.stdout).toMatch(/^hello \(\S+hello\.yaml\): every 1s UTC, next due /);
    expect(one.stdout).toMatch(/\n1\s+\S+Z\s+completed\s+1\s+0 changed, 1 new, 0 removed\s+-/);
    const [checksHeader, checkRow] = one.stdout.split("\n").slice(-3) as [string, string];
    expect(checkRow.indexOf("completed")).toBe(checksHeader.indexOf("status"));
    expect(checkRow.indexOf("0 changed")).toBe(checksHeader.indexOf("found"));
  });

  it("an invalid file is reported with file:line:col and exit 2; monitors on a missing database is an error", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "bad.yaml"), `version: 1\nname: bad\nschedule:\n  cron: "* * *"\nsteps:\n  - id: page\n    scrape: { url: "https://example.com/" }\n`);
    const r = await runChild(["watch", join(dir, "bad.yaml"), "--db", join(dir, "w.db"), "--once"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/file\.invalid file=\S+bad\.yaml at=\S+bad\.yaml:4:9 error="invalid-cron: /);
    const missing = await cliInProcess(["monitors", "--db", join(dir, "nope.db")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no database at/);
  });

  it("a lease length that is not a duration is an error, and nothing runs", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "a.yaml"), `version: 1\nname: a\nschedule: { every: 1h }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page" }\n`);
    const before = site.hits.get("/page") ?? 0;
    const r = await runChild(["watch", join(dir, "a.yaml"), "--db", join(dir, "w.db"), "--once", "--allow-private-network"], { env: { SCRAPELINE_CHECK_LEASE: "a minute" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SCRAPELINE_CHECK_LEASE is "a minute": give how long a watcher holds a check without renewing it, such as 60s, 2m or 1500ms (at least 1s)');
    expect(site.hits.get("/page") ?? 0).toBe(before);
  });
});

describe("scrapeline watch with many checks at once", () => {
  it("runs 12 checks at once under --max-parallel 12 without a warning on stderr", async () => {
    const dir = workdir();
    const waiting: Array<() => void> = [];
    site.route("/slow", async (_req, res) => {
      // Every request waits until all 12 checks are in flight at once.
      await new Promise<void>((go) => {
        waiting.push(go);
        if (waiting.length === 12) for (const w of waiting) w();
      });
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Slow", "<p>slow</p>"));
    });
    for (let i = 0; i < 12; i++) writeFileSync(join(dir, `p${i}.yaml`), `version: 1\nname: p${i}\nschedule: { every: 1h }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/slow?p=${i}" }\n`);
    const r = await runChild(["watch", dir, "--db", join(dir, "w.db"), "--once", "--max-parallel", "12", "--allow-private-network"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/check\.completed/g)).toHaveLength(12);
    expect(r.stderr).toBe("");
  });
});

describe("scrapeline run with notify", () => {
  it("prints each delivery with the channel's origin only, and a failed one as a warning", async () => {
    const dir = workdir();
    const file = join(dir, "p.yaml");
    writeFileSync(file, `version: 1\nname: told\nnotify:\n  on: [new]\n  channels:\n    - webhook: { url: "http://127.0.0.1:1/secret-token-path" }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking }] }\n`);
    const r = await cliInProcess(["run", file, "--db", join(dir, "r.db"), "--allow-private-network"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: the notification to http:\/\/127\.0\.0\.1:1 \(webhook, monitor\.check\.completed\) failed after 3 attempt\(s\): /);
    expect(r.stderr).not.toContain("secret-token-path");
  });
});
