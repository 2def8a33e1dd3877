import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runChild } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-reporters-"));

beforeAll(async () => {
  site.page("/a", htmlPage("A", "<p>Add to cart</p>"));
  site.page("/b", htmlPage("B", "<p>Sold <out> & gone</p>"));
  await site.start();
});
afterAll(() => site.stop());

/**
 * The rules of the JUnit XML schema CI servers read (Jenkins' junit plugin, Surefire):
 * testsuites > testsuite[name, tests, failures, errors, skipped, time] > testcase[name, classname, time],
 * a failure carries a message, counts agree with the cases, times are decimals.
 */
const JUNIT_RULES = {
  root: "testsuites",
  suite: { name: "testsuite", required: ["name", "tests", "failures", "errors", "skipped", "time"] },
  testcase: { name: "testcase", required: ["name", "classname", "time"], children: ["failure", "error", "skipped", "system-out", "system-err"] },
  failure: { required: ["message"] },
};

type El = { type: string; name: string; attribs: Record<string, string>; children: El[] };
const elements = (node: { children: unknown[] }) => (node.children as El[]).filter((c) => c.type === "tag");

function checkJunit(xml: string): { suite: El; cases: El[] } {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const doc = parseDocument(xml, { xmlMode: true });
  const [root, ...more] = elements(doc);
  expect(more).toEqual([]);
  expect(root!.name).toBe(JUNIT_RULES.root);
  const suites = elements(root!);
  expect(suites).toHaveLength(1);
  const suite = suites[0]!;
  expect(suite.name).toBe(JUNIT_RULES.suite.name);
  for (const a of JUNIT_RULES.suite.required) expect(suite.attribs, `testsuite@${a}`).toHaveProperty(a);
  expect(suite.attribs.time).toMatch(/^\d+(\.\d+)?$/);
  const cases = elements(suite);
  for (const c of cases) {
    expect(c.name).toBe(JUNIT_RULES.testcase.name);
    for (const a of JUNIT_RULES.testcase.required) expect(c.attribs, `testcase@${a}`).toHaveProperty(a);
    expect(c.attribs.time).toMatch(/^\d+(\.\d+)?$/);
    for (const child of elements(c)) {
      expect(JUNIT_RULES.testcase.children).toContain(child.name);
      if (child.name === "failure") for (const a of JUNIT_RULES.failure.required) expect(child.attribs).toHaveProperty(a);
    }
  }
  const count = (name: string) => cases.filter((c) => elements(c).some((x) => x.name === name)).length;
  expect(Number(suite.attribs.tests)).toBe(cases.length);
  expect(Number(suite.attribs.failures)).toBe(count("failure"));
  expect(Number(suite.attribs.errors)).toBe(count("error"));
  expect(Number(suite.attribs.skipped)).toBe(count("skipped"));
  expect(root!.attribs.tests).toBe(suite.attribs.tests);
  return { suite, cases };
}

const recipe = () => `version: 1
name: shop
allowPrivateNetwork: true
steps:
  - id: pages
    scrape: { urls: ["${site.url}/a", "${site.url}/b"] }
    expect:
      documents: { min: 2 }
      markdown: { contains: ["Add to cart"] }
  - id: later
    needs: [pages]
    scrape: { url: "${site.url}/a" }
`;

describe("--reporter", () => {
  it("junit: one suite for the run, a case per step and per expectation, failures with messages; exit 4", async () => {
    const file = join(dir, "shop.yaml");
    writeFileSync(file, recipe());
    const report = join(dir, "junit.xml");
    const r = await runChild(["run", file, "--db", join(dir, "j.db"), "--reporter", `junit=${report}`]);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain(`${file}:9:7: expectation broken: pages: markdown: "Add to cart" missing from 1 of 2 pages`);
    const { suite, cases } = checkJunit(readFileSync(report, "utf8"));
    expect(suite.attribs.name).toBe("shop");
    expect(cases.map((c) => [c.attribs.name, elements(c)[0]?.name ?? "passed"])).toEqual([
      ["pages", "failure"],
      ["later", "skipped"],
      ["pages expect documents", "passed"],
      ["pages expect markdown", "failure"],
    ]);
    const failure = elements(cases[3]!)[0]!;
    expect(failure.attribs.message).toBe('markdown: "Add to cart" missing from 1 of 2 pages');
    expect(cases[3]!.attribs.line).toBe("9");
  });

  it("show carries the verdict of each expectation", async () => {
    const file = join(dir, "shown.yaml");
    writeFileSync(file, recipe());
    const db = join(dir, "s.db");
    expect((await runChild(["run", file, "--db", db])).code).toBe(4);
    const shown = await runChild(["show", "latest", "--db", db]);
    expect(shown.stdout).toContain(`expectations:\n  [pages] documents held (${file}:8:7): 2 stored of 2 tried\n  [pages] markdown broke (${file}:9:7): "Add to cart" missing from 1 of 2 pages`);
    const json = JSON.parse((await runChild(["show", "latest", "--db", db, "--json"])).stdout);
    expect(json.steps[0].expectations.results.map((r: { name: string; passed: boolean }) => [r.name, r.passed])).toEqual([["documents", true], ["markdown", false]]);
  });

  it("github: an error annotation at each broken expectation's line and a job summary", async () => {
    const file = join(dir, "shop-gh.yaml");
    writeFileSync(file, recipe());
    const summary = join(dir, "summary.md");
    writeFileSync(summary, "earlier\n");
    const r = await runChild(["run", file, "--db", join(dir, "g.db"), "--reporter", "github", "--reporter", `junit=${join(dir, "g.xml")}`], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(4);
    const annotations = r.stdout.split("\n").filter((l) => l.startsWith("::"));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error file=[^,]*shop-gh\.yaml,line=9,col=7,title=expectation broken%3A pages%3A markdown::"Add to cart" missing from 1 of 2 pages .*pages: http:\/\/127\.0\.0\.1:\d+\/b$/);
    const md = readFileSync(summary, "utf8");
    expect(md.startsWith("earlier\n### scrapeline: shop failed (expectation)")).toBe(true);
    expect(md).toContain("| pages | failed (expectation) | 2 | 0 | 2 |");
    expect(md).toContain("1 of 2 expectations held.");
  });

  it("github: a step failed for its own cause is annotated at the step", async () => {
    const file = join(dir, "refused.yaml");
    writeFileSync(file, `version: 1\nname: refused\nallowPrivateNetwork: true\nretry: { attempts: 1 }\nsteps:\n  - id: gone\n    scrape: { url: "http://127.0.0.1:1/x" }\n`);
    const r = await runChild(["run", file, "--db", join(dir, "r.db"), "--reporter", "github", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).status).toBe("failed");
    expect(r.stderr).toMatch(/^::error file=[^,]*refused\.yaml,line=6,col=5,title=step gone failed::1 page\(s\) failed$/m);
  });

  it("refuses a reporter it does not know, before running", async () => {
    const r = await runChild(["run", join(dir, "none.yaml"), "--reporter", "junit"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--reporter junit needs a file to write: --reporter junit=FILE");
  });
});
