import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliInProcess, runChild } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-args-"));
const file = join(dir, "p.yaml");
const db = join(dir, "data", "runs.db");

beforeAll(async () => {
  site.page("/a", htmlPage("A", "<p>a</p>"));
  await site.start();
  writeFileSync(file, `version: 1\nname: args\nallowPrivateNetwork: true\nsteps:\n  - id: a\n    scrape: { url: "${site.url}/a" }\n`);
});
afterAll(() => site.stop());

/** A bad command line exits 2 before anything is fetched or stored. */
async function refused(args: string[]) {
  const r = await runChild(args);
  expect(r.code).toBe(2);
  expect(site.hits.get("/a") ?? 0).toBe(0);
  expect(existsSync(db)).toBe(false);
  expect(r.stdout).toBe("");
  expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  return r;
}

describe("a bad command line costs nothing", () => {
  it("refuses an engine that does not exist before running anything", async () => {
    const r = await refused(["run", file, "--db", db, "--engine", "nope"]);
    expect(r.stderr).toContain('Argument: engine, Given: "nope"');
  });

  it("refuses a mistyped option, suggesting the right one", async () => {
    const r = await refused(["run", file, "--db", db, "--allow-privat-network"]);
    expect(r.stderr).toContain('unknown option --allow-privat-network (did you mean "--allow-private-network"?)');
    expect(r.stderr).not.toContain("allowPrivatNetwork");
  });

  it.each([["0"], ["-3"], ["abc"], ["1.5"]])("refuses --concurrency %s", async (value) => {
    const r = await refused(["run", file, "--db", db, "--concurrency", value]);
    expect(r.stderr).toContain(`--concurrency takes a whole number of at least 1, got "${value}"`);
  });

  it("says which argument is missing, and nothing else", async () => {
    const r = await refused(["run", "--db", db]);
    expect(r.stderr).toBe("error: missing argument: scrapeline run <file>\nRun scrapeline run --help for the options.\n");
  });

  it("refuses an extra argument", async () => {
    const r = await refused(["run", file, "other.yaml", "--db", db]);
    expect(r.stderr).toContain('unexpected argument "other.yaml"');
  });

  it("refuses an unknown export format before writing anything", async () => {
    const r = await cliInProcess(["export", "--db", db, "--format", "xml"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('Argument: format, Given: "xml"');
  });

  it.each([
    [["runs", "--limit", "0"], "--limit takes a whole number of at least 1"],
    [["diff", "https://example.com/", "--from", "x"], "--from takes a whole number of at least 1"],
    [["serve", "--port", "70000"], "--port takes a whole number from 0 to 65535"],
    [["keys", "create", "--team", "t", "--rate-limit", "0"], "--rate-limit takes a whole number of at least 1"],
  ])("checks the numbers of %j", async (args, message) => {
    const r = await cliInProcess([...args, "--db", db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(db)).toBe(false);
  });

  it("still runs a good command line", async () => {
    const r = await runChild(["run", file, "--db", db, "--concurrency", "2"]);
    expect(r.code).toBe(0);
    expect(site.hits.get("/a")).toBe(1);
  });
});
