import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The built CLI with an environment the test chooses: no model, no search provider unless given.
function cli(args: string[], env: Record<string, string> = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SCRAPELINE_")));
  const r = spawnSync(process.execPath, ["dist/cli/main.js", ...args], { encoding: "utf8", env: { ...base, NO_COLOR: "1", ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "scrapeline-ready-"));
const file = join(dir, "sure-to-fail.yaml");
writeFileSync(
  file,
  [
    "version: 1",
    "name: sure-to-fail",
    "steps:",
    "  - id: local",
    "    scrape: { url: http://127.0.0.1:8080/admin }",
    "  - id: find",
    "    search: { query: scrapeline }",
    "  - id: ex",
    "    extract:",
    '      urls: ["https://example.com/"]',
    "      prompt: The title",
    "  - id: sum",
    "    scrape: { url: https://example.com/, formats: [summary] }",
    "",
  ].join("\n"),
);
const ready = join(dir, "ready.yaml");
writeFileSync(ready, "version: 1\nname: ready\nsteps:\n  - id: a\n    scrape: { url: https://example.com/ }\n");

describe("a valid file that is sure to fail when run here", () => {
  it("validate warns at the line of each cause, and --strict fails on them", () => {
    const r = cli(["validate", file, "--format", "short"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      `${file}:5:20: warning[private-address]: http://127.0.0.1:8080/admin is a loopback address, which the local engine does not fetch (run it with --allow-private-network, or set allowPrivateNetwork: true in the file)`,
      `${file}:7:13: warning[no-search-provider]: search step "find" needs a search provider, and SCRAPELINE_SEARXNG_URL is not set (set SCRAPELINE_SEARXNG_URL to a SearXNG instance (e.g. http://127.0.0.1:8888), or run on the firecrawl engine)`,
      `${file}:11:15: warning[no-model]: a prompt without a schema in step "ex" needs a model: SCRAPELINE_LLM_BASE_URL is not set (set SCRAPELINE_LLM_BASE_URL to an OpenAI-compatible endpoint and SCRAPELINE_LLM_MODEL to the model's name)`,
      `${file}:13:52: warning[no-model]: the summary format in step "sum" needs a model: SCRAPELINE_LLM_BASE_URL is not set (set SCRAPELINE_LLM_BASE_URL to an OpenAI-compatible endpoint and SCRAPELINE_LLM_MODEL to the model's name)`,
    ]);
    expect(cli(["validate", "--strict", file]).code).toBe(2);
    expect(cli(["validate", "--strict", ready]).code).toBe(0);
  });

  it("says nothing once the run would have what it needs", () => {
    const env = { SCRAPELINE_LLM_BASE_URL: "http://127.0.0.1:11434/v1", SCRAPELINE_LLM_MODEL: "m", SCRAPELINE_SEARXNG_URL: "http://127.0.0.1:8888" };
    const r = cli(["validate", "--strict", "--allow-private-network", file, "--format", "short"], env);
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
  });

  it("plan prints the same warnings with the plan", () => {
    const r = cli(["plan", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("# plan of");
    expect(r.stderr).toContain(`${file}:5:20: warning[private-address]`);
    expect(r.stderr).toContain(`${file}:11:15: warning[no-model]`);
  });
});
