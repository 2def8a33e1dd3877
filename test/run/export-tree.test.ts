import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRun } from "../../src/app/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Home", "<p>Welcome.</p>"));
  site.page("/docs/guide", htmlPage("Guide", "<p>The guide.</p>"));
  site.page("/docs/", htmlPage("Docs", "<p>All docs.</p>"));
  site.page("/search", htmlPage("Search", "<p>Results.</p>"));
  await site.start();
});
afterAll(() => site.stop());

/** Every file under `dir` by its relative path, with its bytes. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files[name.split("\\").join("/")] = readFileSync(path, "utf8");
  }
  return files;
}

describe("export --format tree", () => {
  it("writes <step>/<host>/<path>.md and .json per page; two runs of an unchanged site export byte-identical trees", async () => {
    const urls = ["/", "/docs/guide", "/docs/", "/search?q=a"].map((p) => `"${site.url}${p}"`).join(", ");
    const yaml = pipeline(`  - id: pages\n    scrape: { urls: [${urls}], formats: [markdown, links] }\n`, "concurrency: 4\n");
    const dir = workdir();
    const db = join(dir, "t.db");
    const first = await runYaml(yaml, { db });
    const second = await runYaml(yaml, { db });
    if (!first.result.ok || !second.result.ok) throw new Error("invalid");
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    expect((await exportRun({ db, run: first.result.runId, format: "tree", out: a })).count).toBe(4);
    await exportRun({ db, run: second.result.runId, format: "tree", out: b });

    const host = new URL(site.url).host.replace(":", "_");
    const files = tree(a);
    expect(Object.keys(files)).toEqual(expect.arrayContaining([`pages/${host}/index.md`, `pages/${host}/index.json`, `pages/${host}/docs/guide.md`, `pages/${host}/docs/index.json`]));
    expect(Object.keys(files).some((f) => /^pages\/[^/]+\/search__[0-9a-f]{10}\.md$/.test(f))).toBe(true);
    expect(files[`pages/${host}/docs/guide.md`]).toContain("The guide.");
    const json = files[`pages/${host}/docs/guide.json`]!;
    expect(json).not.toMatch(/scrapeId|cacheState|cachedAt/);
    expect(Object.keys(JSON.parse(json))).toEqual([...Object.keys(JSON.parse(json))].sort());
    expect(tree(b)).toEqual(files);
  });
});
