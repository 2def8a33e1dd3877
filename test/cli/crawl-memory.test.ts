import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";

/**
 * What a short crawl through the built CLI holds beyond its pages: the HTTP parser's WebAssembly is
 * compiled by V8's baseline compiler only (src/cli/main.ts), whose compile needs a few MB, where
 * the optimizing one held about 35 MB of the process's memory for a moment.
 */
const MAIN = resolve("dist/cli/main.js");
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Home", `<p>The home page, with a link to <a href="/next">the next page</a>.</p>`)).page("/next", htmlPage("Next", "<p>The next page.</p>"));
  await site.start();
});
afterAll(() => site.stop());

/** Runs the built CLI under test/cli/report-heap.mjs; its exit and V8's heap statistics as it exited. */
function runReportingHeap(args: string[], out: string): Promise<{ code: number | null; stderr: string; heap: { peak_malloced_memory: number } }> {
  const child = spawn(process.execPath, ["--import", resolve("test/cli/report-heap.mjs"), MAIN, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, REPORT_HEAP_TO: out } });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  return new Promise((done) => child.once("close", (code) => done({ code, stderr, heap: existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : { peak_malloced_memory: NaN } })));
}

describe.skipIf(!existsSync(MAIN))("a crawl's memory through the CLI", () => {
  it("fetches its pages without the optimizing compile of the HTTP parser", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-crawl-memory-"));
    const file = join(dir, "crawl.yaml");
    writeFileSync(file, `version: 1\nname: short\nsteps:\n  - id: site\n    crawl: { url: "${site.url}/", limit: 2, sitemap: skip, scrapeOptions: { formats: [markdown] } }\n`);
    const run = await runReportingHeap(["run", file, "--db", join(dir, "runs.db"), "--allow-private-network"], join(dir, "heap.json"));
    expect(run.code, run.stderr).toBe(0);
    expect(site.hits.get("/next")).toBe(1);
    // About 36 MB with the optimizing compile, under 3 MB without it.
    expect(run.heap.peak_malloced_memory).toBeLessThan(16 * 1024 * 1024);
  });
});
