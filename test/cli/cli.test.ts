import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/cli.js";

async function cli(args: string[], tty = false) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: tty, color: false });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), "scrapeline-cli-"));
const valid = join(dir, "valid.yaml");
writeFileSync(valid, "version: 1\nname: ok\nsteps:\n  - id: a\n    map: { url: https://example.com }\n");
const invalid = join(dir, "invalid.yaml");
writeFileSync(invalid, "version: 1\nname: bad\nsteps:\n  - id: a\n    scrape:\n      url: https://example.com\n      formatz: [markdown]\n");
const warned = join(dir, "warned.yaml");
writeFileSync(warned, "version: 1\nname: w\nsteps:\n  - id: a\n    crawl: { url: https://example.com, maxDepth: 2 }\n");
const nested = join(dir, "nested");
mkdirSync(nested);
writeFileSync(join(nested, "inner.yml"), "version: 1\nname: inner\nsteps:\n  - id: a\n    map: { url: https://example.com }\n");
writeFileSync(join(nested, "notes.txt"), "not a pipeline");

describe("scrapeline validate", () => {
  it("exits 0 for valid files and says so", async () => {
    const r = await cli(["validate", valid]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("ok: 1 file checked, 0 errors and 0 warnings\n");
  });

  it("exits 2 with short diagnostics when not on a terminal", async () => {
    const r = await cli(["validate", invalid]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(`${invalid}:7:7: error[unknown-key]: unknown key "formatz" in scrape step "a" (did you mean "formats"?)\n`);
  });

  it("uses the long form on a terminal", async () => {
    const r = await cli(["validate", invalid], true);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("7 |       formatz: [markdown]\n  |       ^^^^^^^ did you mean \"formats\"?");
    expect(r.stdout).toContain("invalid: 1 file checked, 1 error and 0 warnings");
  });

  it("prints JSON diagnostics for CI", async () => {
    const r = await cli(["validate", invalid, valid, "--format", "json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([{ file: invalid, line: 7, column: 7, severity: "error", code: "unknown-key", message: 'unknown key "formatz" in scrape step "a"', hint: 'did you mean "formats"?' }]);
  });

  it("passes warnings unless --strict", async () => {
    expect((await cli(["validate", warned])).code).toBe(0);
    const strict = await cli(["validate", warned, "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toContain("warning[deprecated]");
  });

  it("walks directories for .yaml and .yml files", async () => {
    const r = await cli(["validate", nested, valid]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("2 files checked");
  });

  it("reports a directory with no pipelines and a missing file", async () => {
    const empty = mkdtempSync(join(tmpdir(), "scrapeline-empty-"));
    expect((await cli(["validate", empty])).stdout).toContain("error[no-pipelines]");
    const missing = await cli(["validate", join(dir, "nope.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain("error[file-not-found]");
  });
});

describe("scrapeline plan", () => {
  it("prints the normalized pipeline in run order", async () => {
    const file = join(dir, "plan.yaml");
    writeFileSync(file, "version: 1\nname: p\nsteps:\n  - id: site\n    map: { url: https://example.com }\n  - id: pages\n    scrape: { urls: { from: site }, parsePDF: false }\n  - id: other\n    map: { url: https://example.org }\n");
    const r = await cli(["plan", file, "--format", "json"]);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.steps.map((s: { id: string; stage: number }) => [s.id, s.stage])).toEqual([["site", 0], ["other", 0], ["pages", 1]]);
    expect(plan.steps[2].body).toMatchObject({ urls: { from: "site" }, parsers: [] });
    expect(r.stderr).toContain("warning[deprecated]");
  });

  it("shows values from the environment as their reference, never the value", async () => {
    const file = join(dir, "secret.yaml");
    writeFileSync(file, 'version: 1\nname: s\nsteps:\n  - id: a\n    scrape:\n      url: https://example.com\n      headers: { Authorization: "Bearer ${SCRAPELINE_TEST_SECRET}" }\n');
    process.env.SCRAPELINE_TEST_SECRET = "tok-1234567890";
    try {
      const r = await cli(["plan", file]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Authorization: Bearer ${SCRAPELINE_TEST_SECRET}");
      expect(r.stdout + r.stderr).not.toContain("tok-1234567890");
    } finally {
      delete process.env.SCRAPELINE_TEST_SECRET;
    }
  });

  it("exits 2 on an invalid pipeline, with the diagnostics on stderr", async () => {
    const r = await cli(["plan", invalid]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown-key");
  });
});

describe("scrapeline schema, help and usage", () => {
  it("prints the path of the bundled schema, or its contents", async () => {
    const path = await cli(["schema"]);
    expect(path.stdout.trim()).toMatch(/schemas[/\\]pipeline\.schema\.json$/);
    const printed = await cli(["schema", "--print"]);
    expect(JSON.parse(printed.stdout).properties.steps).toBeDefined();
  });

  it("shows help with examples", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("scrapeline validate pipelines/");
    expect(r.stdout).toContain("Exit codes");
  });

  it("exits 2 on an unknown command, suggesting the right one", async () => {
    const r = await cli(["valdate", valid]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown command "valdate" (did you mean "validate"?)`);
  });

  it("exits 2 when no command is given", async () => {
    expect((await cli([])).code).toBe(2);
  });
});

describe("the installed bin", () => {
  it("runs as a program and sets its exit code", () => {
    const r = spawnSync(process.execPath, ["dist/cli/main.js", "validate", invalid, "--format", "short"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toContain("error[unknown-key]");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});

describe("scrapeline crawl-preview and crawl prompts", () => {
  it("prints the options a prompt derives, with the phrase behind each", async () => {
    const r = await cli(["crawl-preview", "https://example.com", "only blog posts, at most 50 pages, skip the sitemap"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("crawl of https://example.com/");
    expect(r.stdout).toMatch(/limit\s+50\s+"at most 50 pages"/);
    expect(r.stdout).toMatch(/sitemap\s+"skip"\s+"skip the sitemap"/);
    expect(r.stdout).toContain('["^/(?:blog|posts)(?:/|$)"]');
  });

  it("answers --json in the params-preview shape", async () => {
    const r = await cli(["crawl-preview", "https://example.com/docs", "two levels deep and include subdomains", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { url: "https://example.com/docs", maxDiscoveryDepth: 2, allowSubdomains: true } });
  });

  it("says when nothing was recognised, and refuses a bad URL or an empty prompt", async () => {
    const none = await cli(["crawl-preview", "https://example.com", "whatever is interesting"]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("no crawl option was recognised");
    expect((await cli(["crawl-preview", "mailto:x@example.com", "only blog"])).code).toBe(2);
    // A bare host gets the hint validate gives for the same mistake.
    const bare = await cli(["crawl-preview", "example.com", "only blog"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe('error: "example.com" is not a URL (write the full URL, e.g. https://example.com/page)\n');
    const empty = await cli(["crawl-preview", "https://example.com", "  "]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("the prompt is empty");
  });

  it("applies a crawl step's prompt in the plan, explicit options winning, and shows what it derived", async () => {
    const file = join(dir, "prompted.yaml");
    writeFileSync(file, 'version: 1\nname: p\nsteps:\n  - id: blog\n    crawl: { url: "https://example.com", prompt: "only blog posts, at most 50 pages, two levels deep", limit: 10 }\n');
    const r = await cli(["plan", file, "--format", "json"]);
    expect(r.code).toBe(0);
    const step = JSON.parse(r.stdout).steps[0];
    expect(step.fromPrompt).toEqual({ includePaths: ["^/(?:blog|posts)(?:/|$)"], maxDiscoveryDepth: 2 });
    expect(step.body).toMatchObject({ limit: 10, maxDiscoveryDepth: 2, includePaths: ["^/(?:blog|posts)(?:/|$)"] });
  });

  it("warns at the prompt when it derives nothing", async () => {
    const file = join(dir, "vague.yaml");
    writeFileSync(file, 'version: 1\nname: v\nsteps:\n  - id: c\n    crawl:\n      url: "https://example.com"\n      prompt: "the good stuff"\n');
    const r = await cli(["validate", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${file}:7:15: warning[prompt-not-understood]`);
  });
});
