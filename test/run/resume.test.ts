import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliChild, finish, workdir } from "./helpers.js";

const PAGES = 12;
const site = new FixtureSite();

beforeAll(async () => {
  for (let i = 0; i < PAGES; i++) {
    // Each page answers after a pause, so the run is still going when it is killed.
    site.route(`/slow/${i}`, (_req, res) => {
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Slow ${i}`, `<p>page ${i}</p>`)), 150);
    });
  }
  await site.start();
});
afterAll(() => site.stop());

function cli(args: string[]) {
  return spawn(process.execPath, ["dist/cli/main.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

describe("kill -9 during a run, then --resume", () => {
  it("leaves a sound database and finishes with every page stored once", async () => {
    const dir = workdir();
    const file = join(dir, "slow.yaml");
    const db = join(dir, "slow.db");
    const urls = Array.from({ length: PAGES }, (_, i) => `"${site.url}/slow/${i}"`).join(", ");
    writeFileSync(file, `version: 1\nname: slow\nconcurrency: 1\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);

    const child = cli(["run", file, "--db", db, "--allow-private-network"]);
    let stored = 0;
    await new Promise<void>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stored += (chunk.toString().match(/ 200 http/g) ?? []).length;
        if (stored >= 4) {
          child.kill("SIGKILL");
          resolve();
        }
      });
      child.on("exit", () => resolve());
      child.on("error", reject);
    });
    await new Promise((r) => child.on("exit", r));
    expect(child.signalCode).toBe("SIGKILL");

    const check = new Database(db);
    expect(check.pragma("quick_check", { simple: true })).toBe("ok");
    const storedBefore = check.prepare("SELECT COUNT(*) FROM documents").pluck().get() as number;
    expect(storedBefore).toBeGreaterThanOrEqual(4);
    expect(storedBefore).toBeLessThan(PAGES);
    expect(check.prepare("SELECT status FROM runs").pluck().get()).toBe("running");
    check.close();

    const resumed = cli(["run", file, "--db", db, "--allow-private-network", "--resume", "--json"]);
    let out = "";
    resumed.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise((r) => resumed.on("exit", r));
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    expect(summary.status).toBe("succeeded");
    // The summary counts the run's documents, as runs does, and says what this process added.
    expect(summary).toMatchObject({ resumed: true, steps: [{ id: "pages", documents: PAGES, added: PAGES - storedBefore }] });

    const after = new Database(db, { readonly: true });
    const runs = after.prepare("SELECT id, status FROM runs").all();
    expect(runs).toEqual([{ id: 1, status: "succeeded" }]);
    after.close();
    const { SqliteStore } = await import("../../src/store/index.js");
    const store = new SqliteStore(db);
    const urlsStored = [...store.documents(1, "pages")].map((d) => d.url).sort();
    store.close();
    expect(urlsStored).toEqual(Array.from({ length: PAGES }, (_, i) => `${site.url}/slow/${i}`).sort());
    // Pages stored before the kill were not fetched again; at most the one in flight was.
    const fetches = [...Array(PAGES).keys()].reduce((n, i) => n + (site.hits.get(`/slow/${i}`) ?? 0), 0);
    expect(fetches).toBeLessThanOrEqual(PAGES + 1);
  });

  it("SIGINT stops scheduling, stores what finished, exits 130 and marks the run interrupted", async () => {
    const dir = workdir();
    const file = join(dir, "int.yaml");
    const db = join(dir, "int.db");
    const urls = Array.from({ length: PAGES }, (_, i) => `"${site.url}/slow/${i}"`).join(", ");
    writeFileSync(file, `version: 1\nname: int\nconcurrency: 1\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
    const child = cli(["run", file, "--db", db, "--allow-private-network"]);
    let err = "";
    let sent = false;
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      if (!sent && (err.match(/ 200 http/g) ?? []).length >= 2) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(130);
    expect(err).toContain("stopping: waiting for pages in flight");
    const check = new Database(db, { readonly: true });
    expect(check.prepare("SELECT status FROM runs").pluck().get()).toBe("interrupted");
    expect(check.prepare("SELECT status FROM step_runs").pluck().get()).toBe("cancelled");
    check.close();
  });

  it("two runs writing the same database at once both complete", async () => {
    const dir = workdir();
    const db = join(dir, "shared.db");
    const children = [0, 1].map((k) => {
      const file = join(dir, `p${k}.yaml`);
      const urls = Array.from({ length: 6 }, (_, i) => `"${site.url}/slow/${i}"`).join(", ");
      writeFileSync(file, `version: 1\nname: p${k}\nconcurrency: 3\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}] }\n`);
      return finish(cliChild(["run", file, "--db", db, "--allow-private-network", "--json"]));
    });
    const ended = await Promise.all(children);
    expect(ended.map((e) => e.code), ended.map((e) => e.err).join("\n")).toEqual([0, 0]);
    const check = new Database(db, { readonly: true });
    expect(check.prepare("SELECT pipeline_name, status, credits_used FROM runs ORDER BY pipeline_name").all()).toEqual([
      { pipeline_name: "p0", status: "succeeded", credits_used: 6 },
      { pipeline_name: "p1", status: "succeeded", credits_used: 6 },
    ]);
    expect(check.pragma("quick_check", { simple: true })).toBe("ok");
    check.close();
  });
});
