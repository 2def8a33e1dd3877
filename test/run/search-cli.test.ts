import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChild } from "../cli/child.js";
import { FakeSearxng, webResults } from "../helpers/searxng.js";
import { pipeline, workdir } from "./helpers.js";

// The built CLI (npm run build) as a child process, against a SearXNG on loopback.
const searx = new FakeSearxng({ results: { general: webResults("https://example.com", 3) } });
beforeAll(async () => void (await searx.start()));
afterAll(async () => searx.stop());

describe("search steps through the CLI", () => {
  it("run, show, changes between two runs, export --step and plan", async () => {
    const dir = workdir();
    const file = join(dir, "watch.yaml");
    const db = join(dir, "watch.db");
    writeFileSync(file, pipeline(`  - id: find\n    search: { query: "llama news", limit: 5 }\n`));
    const env = { SCRAPELINE_SEARXNG_URL: searx.url };

    const first = await runChild(["run", file, "--db", db], { env });
    expect(first.code, first.stderr).toBe(0);
    searx.options.results = { general: [...webResults("https://example.com", 3).slice(1), { url: "https://example.com/fresh", title: "Fresh" }] };
    const second = await runChild(["run", file, "--db", db], { env });
    expect(second.code, second.stderr).toBe(0);

    const show = await runChild(["show", "latest", "--db", db]);
    expect(show.stdout).toContain("find: search, web: 3 result(s), 2 credit(s); since run 1: 1 new, 1 gone");

    const changes = await runChild(["changes", "--db", db, "--exit-code"]);
    expect(changes.code).toBe(1);
    expect(changes.stdout).toContain("search [find] since run 1: 1 new, 1 removed result(s)");
    expect(changes.stdout).toMatch(/new\s+web https:\/\/example\.com\/fresh {2}Fresh/);
    expect(changes.stdout).toMatch(/removed\s+web https:\/\/example\.com\/r1 {2}Result 1/);

    const exported = await runChild(["export", "--db", db, "--step", "find", "--format", "jsonl"]);
    expect(exported.stdout.trim().split("\n").map((l) => JSON.parse(l).url)).toEqual(["https://example.com/r2", "https://example.com/r3", "https://example.com/fresh"]);

    const plan = await runChild(["plan", file, "--format", "json"]);
    expect(JSON.parse(plan.stdout).steps[0].estimate).toMatchObject({ credits: 2, exact: false });
  });

  it("a search without SCRAPELINE_SEARXNG_URL fails with what to set and how to start SearXNG", async () => {
    const dir = workdir();
    const file = join(dir, "p.yaml");
    writeFileSync(file, pipeline(`  - id: find\n    search: { query: x }\n`));
    const run = await runChild(["run", file, "--db", join(dir, "x.db")], { env: { SCRAPELINE_SEARXNG_URL: "" } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("SCRAPELINE_SEARXNG_URL");
    expect(run.stderr).toContain("docker run");
  });
});
