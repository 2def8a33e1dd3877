import { createHmac } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";
import { WatchChild } from "./watch-child.js";

/**
 * A real `scrapeline watch` child on a two-second schedule, against a loopback site whose page
 * changes, with a loopback receiver that checks each notification's HMAC; killed with SIGKILL in
 * the middle of a check and started again.
 */
const site = new FixtureSite();
let version = "v1";
let hold: Promise<void> | undefined;
let release: () => void = () => {};
const SECRET = "daemon-secret";
const received: Array<{ event: string; body: Record<string, unknown> }> = [];
const badSignatures: string[] = [];
const hook = createServer((req, res) => {
  let data = "";
  req.on("data", (c) => (data += c));
  req.on("end", () => {
    const expected = `sha256=${createHmac("sha256", SECRET).update(data).digest("hex")}`;
    if (req.headers["x-scrapeline-signature"] !== expected) {
      badSignatures.push(data);
      res.writeHead(401).end();
      return;
    }
    received.push({ event: String(req.headers["x-scrapeline-event"]), body: JSON.parse(data) });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  site.route("/page", async (_req, res, hits) => {
    // The second check's page (the page's second hit) waits while `hold` is set.
    if (hold && hits === 2) await hold;
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Prices", `<p>widget costs ${version}</p>`));
  });
  await site.start();
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  release();
  await site.stop();
  hook.closeAllConnections();
  await new Promise((r) => hook.close(r));
});


const field = (line: string, name: string) => new RegExp(`\\b${name}=(\\S+)`).exec(line)?.[1];

describe("scrapeline watch (a real child process)", () => {
  it("runs on schedule, notifies signed changes, survives kill -9 without running a slot twice, and stops on SIGTERM", async () => {
    const dir = workdir();
    mkdirSync(join(dir, "pipelines"));
    const db = join(dir, "watch.db");
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    writeFileSync(
      join(dir, "pipelines", "prices.yaml"),
      `version: 1\nname: prices\nretry: { attempts: 1 }\nschedule: { every: 2s, minIntervalSeconds: 1 }\nnotify:\n  on: [changed, new]\n  channels:\n    - webhook: { url: "${hookUrl}", secret: ${SECRET}, events: [monitor.check.completed, monitor.page] }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`,
    );
    const args = [join(dir, "pipelines"), "--db", db, "--allow-private-network"];

    // The check after the first hangs on the page (held from before the first starts, as the next
    // slot may come due within milliseconds of the first check); the process is killed in the middle of it.
    hold = new Promise<void>((r) => (release = r));
    const first = new WatchChild(args);
    const [done] = await first.lines(/check\.completed monitor=prices/);
    expect(done).toMatch(/pages=1 changed=0 new=1/);

    const started = (await first.lines(/check\.started monitor=prices/, 2))[1]!;
    // The first check fetched the page once; the second is in it once the page has a second hit.
    while ((site.hits.get("/page") ?? 0) < 2) await new Promise((r) => setTimeout(r, 20));
    const killedCheck = field(started, "check")!;
    first.child.kill("SIGKILL");
    await first.exited;
    version = "v2";
    hold = undefined;
    release();

    const second = new WatchChild(args);
    const [resumed] = await second.lines(/check\.resumed monitor=prices/);
    expect(field(resumed!, "check")).toBe(killedCheck);
    const [finished] = await second.lines(new RegExp(`check\\.completed monitor=prices check=${killedCheck} `));
    expect(finished).toMatch(/changed=1 new=0/);
    // One more scheduled check after the resumed one, then a graceful stop.
    await second.lines(/check\.completed monitor=prices/, 2);
    second.child.kill("SIGTERM");
    const exit = await second.exited;
    expect(exit.code).toBe(0);

    const sqlite = new Database(db, { readonly: true });
    const checks = sqlite.prepare("SELECT id, slot, status, run_id FROM monitor_checks ORDER BY id").all() as Array<{ id: number; slot: string; status: string; run_id: number | null }>;
    const runs = sqlite.prepare("SELECT id, status FROM runs ORDER BY id").all() as Array<{ id: number; status: string }>;
    sqlite.close();
    // No slot twice, no run twice: every run belongs to exactly one check.
    expect(new Set(checks.map((c) => c.slot)).size).toBe(checks.length);
    const withRuns = checks.filter((c) => c.run_id !== null);
    expect(new Set(withRuns.map((c) => c.run_id)).size).toBe(withRuns.length);
    expect(runs.map((r) => r.id).sort()).toEqual(withRuns.map((c) => c.run_id).sort());
    expect(checks.find((c) => String(c.id) === killedCheck)).toMatchObject({ status: "completed" });
    expect(checks.every((c) => ["completed", "skipped_overlap", "interrupted"].includes(c.status))).toBe(true);

    // Signed notifications: the first sight and the change, each as a check and a page event.
    expect(badSignatures).toEqual([]);
    const changed = received.filter((r) => r.event === "monitor.page" && r.body.changeStatus === "changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]!.body).toMatchObject({ pipeline: "prices", url: `${site.url}/page`, diff: expect.stringContaining("+widget costs v2") });
    expect(received.filter((r) => r.event === "monitor.check.completed").map((r) => (r.body.summary as { changed: number }).changed)).toEqual([0, 1]);
  }, 60_000);
});
