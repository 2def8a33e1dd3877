import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { cliChild, finish, pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const PAGES = 6;
/** Answers of the page that never comes, ended when the test is over. */
const hanging: Array<() => void> = [];

beforeAll(async () => {
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/docs/p${i}">Page ${i}</a>`).join(" ");
  site.page("/docs/", htmlPage("Docs", `<p>${links} <a href="/docs/slow">Slow</a></p>`));
  for (let i = 0; i < PAGES; i++) site.page(`/docs/p${i}`, htmlPage(`Page ${i}`, `<p>Body of page ${i}.</p>`));
  site.route("/docs/slow", (_req, res) => void hanging.push(() => res.end()));
  await site.start();
});
afterAll(async () => {
  for (const end of hanging) end();
  await site.stop();
});

describe("a recording killed mid-crawl", () => {
  it("leaves a fixture of every page it stored, which replays with the site stopped", async () => {
    const dir = workdir();
    const fixture = join(dir, "fixture");
    const file = join(dir, "crawl.yaml");
    writeFileSync(file, pipeline(`  - id: site\n    crawl: { url: "${site.url}/docs/", sitemap: skip }\n`, "concurrency: 2\n"));
    const child = cliChild(["run", file, "--db", join(dir, "live.db"), "--allow-private-network", "--record", fixture]);
    let killed = false;
    // Killed once the index and every other page are stored, while the slow page hangs.
    const { err } = await finish(child, (text) => {
      if (!killed && (text.match(/ 200 http/g) ?? []).length >= PAGES + 1) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    expect(killed, err).toBe(true);
    expect(existsSync(join(fixture, "index.json"))).toBe(false);
    expect(readFileSync(join(fixture, "journal.jsonl"), "utf8")).toContain(`GET ${site.url}/docs/p0`);
    // A kill in the middle of a body's write leaves the journal pack torn at its end.
    appendFileSync(join(fixture, "bodies", "journal.pack"), `${"ab".repeat(32)} 5000\n<html>`);

    await site.stop();
    const urls = [`${site.url}/docs/`, ...Array.from({ length: PAGES }, (_, i) => `${site.url}/docs/p${i}`)];
    const { result, db } = await runYaml(pipeline(`  - id: pages\n    scrape: { urls: ${JSON.stringify(urls)} }\n`), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const pages = readDocuments(db, result.runId, "pages");
    expect(pages.map((p) => p.url).sort()).toEqual([...urls].sort());
    expect(pages.find((p) => p.url.endsWith("/docs/p3"))!.document.markdown).toContain("Body of page 3.");
  });
});
