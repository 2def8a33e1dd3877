import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliInProcess, runChild } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-warn-"));
let file = "";
const SCHEMA_WARNING = "the extracted json does not match the schema: (root): must have required property 'price'";

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n"));
  site.page("/private", htmlPage("Private", '<a href="/private/a">a</a>'));
  site.page("/product", htmlPage("Product", "<p>no price here</p>"));
  await site.start();
  file = join(dir, "warned.yaml");
  // A page's own warning: json that misses a required field. A step's warning: a map of a page robots.txt disallows.
  writeFileSync(
    file,
    `version: 1\nname: warned\nallowPrivateNetwork: true\nsteps:\n  - id: s\n    scrape:\n      url: "${site.url}/product"\n      formats:\n        - type: json\n          schema: { type: object, required: [price], properties: { price: { type: number } } }\n  - id: m\n    map: { url: "${site.url}/private", sitemap: skip }\n`,
  );
});
afterAll(() => site.stop());

describe("warnings", () => {
  it("are printed by run as they come, each once, counted in the summary, and listed by show", async () => {
    const db = join(dir, "text.db");
    const r = await runChild(["run", file, "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`[s] warning: ${site.url}/product: ${SCHEMA_WARNING}\n`);
    expect(r.stderr.match(/robots\.txt disallows/g)).toHaveLength(1);
    expect(r.stdout).toContain("2 warnings, printed above");

    const shown = await cliInProcess(["show", "latest", "--db", db]);
    expect(shown.stdout).toContain(`\nwarnings:\n`);
    expect(shown.stdout).toContain(`  [s] ${site.url}/product: ${SCHEMA_WARNING}\n`);
    expect(shown.stdout).toContain(`  [m] robots.txt disallows ${site.url}/private`);
    const json = JSON.parse((await cliInProcess(["show", "latest", "--db", db, "--json"])).stdout);
    expect(json.warnings).toHaveLength(2);
    expect(json.warnings).toContainEqual({ stepId: "s", url: `${site.url}/product`, message: SCHEMA_WARNING });
  });

  it("are in the summary of run --json", async () => {
    const r = await runChild(["run", file, "--db", join(dir, "json.db"), "--json"]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.warningsTotal).toBe(2);
    expect(summary.warnings).toContainEqual({ step: "s", message: `${site.url}/product: ${SCHEMA_WARNING}` });
  });
});
