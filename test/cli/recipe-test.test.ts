import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runChild } from "./child.js";

const site = new FixtureSite();
let dir = "";

function recipe(options: { onlyMainContent: boolean; extraUrl?: string }): string {
  const urls = [`${site.url}/a`, `${site.url}/b`, ...(options.extraUrl ? [`${site.url}${options.extraUrl}`] : [])].map((u) => `"${u}"`).join(", ");
  return `version: 1\nname: shop\nallowPrivateNetwork: true\nconcurrency: 3\nsteps:\n  - id: pages\n    scrape: { urls: [${urls}], formats: [markdown, { type: json, schema: { type: object, properties: { name: { type: string } } } }], onlyMainContent: ${options.onlyMainContent} }\n`;
}

beforeAll(async () => {
  for (const name of ["a", "b"]) {
    const ld = JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: `Product ${name}` });
    site.page(`/${name}`, htmlPage(`Product ${name}`, `<script type="application/ld+json">${ld}</script><article><p>About ${name}.</p></article><aside>Aside ${name}</aside>`));
  }
  await site.start();
  dir = mkdtempSync(join(tmpdir(), "scrapeline-recipes-"));
  mkdirSync(join(dir, "pipelines"));
  writeFileSync(join(dir, "pipelines", "shop.yaml"), recipe({ onlyMainContent: false }));
  // A pipeline without a fixture is not tested.
  writeFileSync(join(dir, "pipelines", "other.yaml"), `version: 1\nname: other\nsteps:\n  - id: x\n    scrape: { url: "http://127.0.0.1:9/none" }\n`);
});
afterAll(() => site.stop());

describe("scrapeline test", () => {
  it("records a pipeline, then replays it against its snapshot with the site gone; a change shows as a diff and exit code 1", async () => {
    const recorded = await runChild(["run", "pipelines/shop.yaml", "--record", "pipelines/__fixtures__/shop", "--db", "live.db"], { cwd: dir });
    expect(recorded.code, recorded.stderr).toBe(0);
    await site.stop();

    const first = await runChild(["test"], { cwd: dir });
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(first.stdout).toContain("no snapshot at pipelines/__fixtures__/shop.snap.json");

    const update = await runChild(["test", "--update"], { cwd: dir });
    expect(update.code, update.stdout + update.stderr).toBe(0);
    expect(update.stdout).toMatch(/UPDATED\s+shop/);
    expect(update.stdout).not.toContain("other");
    const snapshotPath = join(dir, "pipelines", "__fixtures__", "shop.snap.json");
    const snapshot = readFileSync(snapshotPath, "utf8");
    const parsed = JSON.parse(snapshot);
    expect(parsed.pages.documents[`${site.url}/a`].json).toEqual({ name: "Product a" });
    expect(snapshot).not.toMatch(/scrapeId|cacheState|cachedAt/);
    expect(Object.keys(parsed.pages.documents)).toEqual([`${site.url}/a`, `${site.url}/b`]);

    const again = await runChild(["test"], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ok\s+shop/);
    expect(again.stdout).toContain("1 passed, 0 failed");
    expect(readFileSync(snapshotPath, "utf8")).toBe(snapshot);

    writeFileSync(join(dir, "pipelines", "shop.yaml"), recipe({ onlyMainContent: true }));
    const changed = await runChild(["test", "pipelines"], { cwd: dir });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/FAIL\s+shop/);
    expect(changed.stdout).toContain("--- pipelines/__fixtures__/shop.snap.json");
    expect(changed.stdout).toMatch(/^-.*Aside a/m);
    expect(changed.stdout).toContain("0 passed, 1 failed");
    expect(readFileSync(snapshotPath, "utf8")).toBe(snapshot);
  });

  it("fails a pipeline that asks for a page its fixture does not hold, naming it", async () => {
    writeFileSync(join(dir, "pipelines", "shop.yaml"), recipe({ onlyMainContent: false, extraUrl: "/c" }));
    const result = await runChild(["test"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL\s+shop/);
    expect(result.stdout).toContain(`not-recorded: GET ${site.url}/c is not in the fixture pipelines/__fixtures__/shop`);
  });

  it("says so when no pipeline has a fixture", async () => {
    const empty = mkdtempSync(join(tmpdir(), "scrapeline-recipes-"));
    mkdirSync(join(empty, "pipelines"));
    const result = await runChild(["test"], { cwd: empty });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no pipeline in pipelines has a fixture");
    expect(existsSync(join(empty, "pipelines", "__fixtures__"))).toBe(false);
  });
});
