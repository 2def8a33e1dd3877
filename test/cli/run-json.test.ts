import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runChild } from "./child.js";

const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-json-"));

beforeAll(async () => {
  site.page("/ok", htmlPage("OK", "<p>fine</p>"));
  await site.start();
});
afterAll(() => site.stop());

describe("run --json", () => {
  it("says which pages failed and why, capped, with the total", async () => {
    // Nothing listens on port 1 of the loopback address: each of these fails at once.
    const refused = Array.from({ length: 105 }, (_, i) => `"http://127.0.0.1:1/p${i}"`);
    const file = join(dir, "failing.yaml");
    writeFileSync(file, `version: 1\nname: failing\nallowPrivateNetwork: true\nretry: { attempts: 1 }\nsteps:\n  - id: good\n    scrape: { url: "${site.url}/ok" }\n  - id: bad\n    continueOnError: true\n    scrape: { urls: [${refused.join(", ")}] }\n`);
    const r = await runChild(["run", file, "--db", join(dir, "failing.db"), "--json"]);
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.stdout);
    expect(summary.failedPagesTotal).toBe(105);
    expect(summary.failedPages).toHaveLength(100);
    expect(summary.failedPages[0]).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/p\d+$/), step: "bad", error: expect.stringMatching(/\S/) });
    expect(summary.steps.find((s: { id: string }) => s.id === "bad")).toMatchObject({ status: "failed", failed: 105, error: "105 page(s) failed" });
  });

  it("lists no failed pages when none failed", async () => {
    const file = join(dir, "fine.yaml");
    writeFileSync(file, `version: 1\nname: fine\nallowPrivateNetwork: true\nsteps:\n  - id: good\n    scrape: { url: "${site.url}/ok" }\n`);
    const r = await runChild(["run", file, "--db", join(dir, "fine.db"), "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "succeeded", failedPages: [], failedPagesTotal: 0 });
  });
});
