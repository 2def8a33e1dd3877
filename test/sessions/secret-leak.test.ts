import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChild, type Finished } from "../cli/child.js";
import { credentials, MembersSite, PASSWORD, SECRET_KEY, sessionPipeline } from "./members-site.js";

// The built CLI: run `npm run build` first.
const site = new MembersSite({ logoutAfter: 2 });
let dir = "";
const outputs: Array<{ what: string; text: string }> = [];

const keep = (what: string, done: Finished) => {
  outputs.push({ what: `${what} (stdout)`, text: done.stdout }, { what: `${what} (stderr)`, text: done.stderr });
  return done;
};

beforeAll(async () => {
  await site.start();
  dir = mkdtempSync(join(tmpdir(), "scrapeline-secret-"));
  const steps = `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 10, sitemap: skip, scrapeOptions: { formats: [markdown, rawHtml, links] } }
`;
  writeFileSync(join(dir, "p.yaml"), sessionPipeline(site, steps));
  // A login that fails, so the error path is in the outputs too.
  writeFileSync(join(dir, "bad.yaml"), sessionPipeline(site, steps).replace("name: members", "name: members-bad").replace("successWhen:", "timeoutMs: 3000\n    successWhen:"));
  const env = { ...credentials, SCRAPELINE_SECRET_KEY: SECRET_KEY };
  const db = join(dir, "s.db");
  const cli = (args: string[], extra: Record<string, string> = {}) => runChild(args, { cwd: dir, env: { ...env, ...extra } });
  keep("plan", await cli(["plan", "p.yaml"]));
  keep("plan --format json", await cli(["plan", "p.yaml", "--format", "json"]));
  const first = keep("run", await cli(["run", "p.yaml", "--db", db, "--allow-private-network"]));
  expect(first.code, first.stderr).toBe(0);
  keep("second run --json", await cli(["run", "p.yaml", "--db", db, "--allow-private-network", "--json"]));
  keep("failed login", await cli(["run", "bad.yaml", "--db", db, "--allow-private-network"], { SITE_PASSWORD: `${PASSWORD}-typo` }));
  keep("runs", await cli(["runs", "--db", db]));
  keep("show", await cli(["show", "--db", db]));
  keep("show 1", await cli(["show", "1", "--db", db]));
  for (const format of ["json", "jsonl", "csv"]) keep(`export ${format}`, await cli(["export", "--db", db, "--run", "1", "--format", format]));
  keep("export markdown", await cli(["export", "--db", db, "--run", "1", "--format", "markdown", "--out", join(dir, "md")]));
  for (const name of readdirSync(join(dir, "md"))) outputs.push({ what: `markdown file ${name}`, text: readFileSync(join(dir, "md", name), "latin1") });
  for (const name of readdirSync(dir).filter((n) => n.startsWith("s.db"))) outputs.push({ what: `database file ${name}`, text: readFileSync(join(dir, name)).toString("latin1") });
}, 120_000);

afterAll(() => site.stop());

describe("a session's secrets", () => {
  it("the runs logged in, crawled, renewed the login, and failed a bad login", () => {
    expect(site.logins).toBeGreaterThanOrEqual(2);
    expect(site.attempts).toBe(site.logins + 1);
    const failed = outputs.find((o) => o.what === "failed login (stderr)")!.text + outputs.find((o) => o.what === "failed login (stdout)")!.text;
    expect(failed).toMatch(/login of session "members" failed/);
    expect(outputs.some((o) => o.what.startsWith("database file") && o.text.length > 0)).toBe(true);
    for (const what of ["plan (stdout)", "plan --format json (stdout)"]) expect(outputs.find((o) => o.what === what)!.text).toContain("${SITE_PASSWORD}");
  });

  it("never appear in plan, run output, errors, show, exports or the database files", () => {
    const secrets = [PASSWORD, `${PASSWORD}-typo`.slice(0, -1), ...site.issued];
    expect(site.issued.length).toBeGreaterThan(0);
    for (const { what, text } of outputs) {
      for (const secret of secrets) expect(text.includes(secret), `${what} contains a secret`).toBe(false);
    }
  });
});
