import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runYaml } from "../run/helpers.js";
import { cliInProcess } from "./child.js";

describe("commands that only read", () => {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-read-"));
  const typo = join(dir, "typo", "x.db");

  it.each([[["runs"]], [["show"]], [["show", "3"]], [["changes"]], [["history", "https://example.com/"]], [["diff", "https://example.com/"]], [["export", "--format", "jsonl"]], [["keys", "list"]], [["keys", "revoke", "abc"]], [["teams", "list"]], [["teams", "set", "--team", "t", "--rate-limit", "5"]], [["teams", "policy", "--team", "t", "--enabled"]]])("%j never creates the database it is pointed at", async (args) => {
    const r = await cliInProcess([...args, "--db", typo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: no database at ${typo}: nothing has been run with it yet. Check --db (or $SCRAPELINE_DB).\n`);
    expect(r.stdout).toBe("");
    expect(existsSync(join(dir, "typo"))).toBe(false);
  });

  it("reads $SCRAPELINE_DB the same way", async () => {
    process.env.SCRAPELINE_DB = typo;
    try {
      expect((await cliInProcess(["runs"])).code).toBe(2);
    } finally {
      delete process.env.SCRAPELINE_DB;
    }
    expect(existsSync(join(dir, "typo"))).toBe(false);
  });
});

describe("history and diff of a page nothing is known about", () => {
  const site = new FixtureSite();
  let db = "";
  beforeAll(async () => {
    site.page("/price", htmlPage("Price", "<p>10 EUR</p>"));
    await site.start();
    const run = await runYaml(`version: 1\nname: track\nsteps:\n  - id: p\n    scrape: { url: "${site.url}/price", formats: [markdown, { type: changeTracking }] }\n`);
    db = run.db;
  });
  afterAll(() => site.stop());

  it("follow the same rule: exit 2, with the same message", async () => {
    const url = `${site.url}/unknown`;
    const history = await cliInProcess(["history", url, "--db", db]);
    const diff = await cliInProcess(["diff", url, "--db", db]);
    expect(diff.code).toBe(2);
    expect(history.code).toBe(2);
    expect(history.stderr).toBe(diff.stderr);
    // The database has a history, of another page: that one is named, not changeTracking.
    expect(history.stderr).toBe(`error: no snapshots of ${url}; the nearest pages with a history: ${site.url}/price\n`);
    const json = await cliInProcess(["history", url, "--db", db, "--json"]);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe("");
  });

  it("still list a known page's versions", async () => {
    const r = await cliInProcess(["history", `${site.url}/price`, "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^version\s+status/);
  });
});
