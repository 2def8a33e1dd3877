import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliInProcess, runChild } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-warn-"));
let file = "";

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n"));
  site.page("/private", htmlPage("Private", '<a href="/private/a">a</a>'));
  await site.start();
  file = join(dir, "warned.yaml");
  // A map of a page robots.txt disallows: the engine maps it and says so in the document's warning.
  writeFileSync(file, `version: 1\nname: warned\nallowPrivateNetwork: true\nsteps:\n  - id: m\n    map: { url: "${site.url}/private", sitemap: skip }\n`);
});
afterAll(() => site.stop());

describe("warnings", () => {
  it("a page's warning is printed by run as it comes, counted in the summary, and listed by show", async () => {
    const db = join(dir, "text.db");
    const r = await runChild(["run", file, "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`[m] warning: ${site.url}/private: robots.txt disallows ${site.url}/private`);
    expect(r.stdout).toContain("1 warning, printed above");

    const shown = await cliInProcess(["show", "latest", "--db", db]);
    expect(shown.stdout).toContain(`\nwarnings:\n  [m] ${site.url}/private: robots.txt disallows ${site.url}/private`);
    const json = JSON.parse((await cliInProcess(["show", "latest", "--db", db, "--json"])).stdout);
    expect(json.warnings).toEqual([{ stepId: "m", url: `${site.url}/private`, message: expect.stringContaining("robots.txt disallows") }]);
  });

  it("are in the summary of run --json", async () => {
    const r = await runChild(["run", file, "--db", join(dir, "json.db"), "--json"]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.warningsTotal).toBe(1);
    expect(summary.warnings).toEqual([{ step: "m", message: expect.stringContaining(`${site.url}/private: robots.txt disallows`) }]);
  });
});
