import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { readPack, toFormat1 } from "./fixture-packs.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";

const site = new FixtureSite();
const PAGES = 20;

beforeAll(async () => {
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/docs/p${i}">Page ${i}</a>`).join(" ");
  site.page("/docs/", htmlPage("Docs", `<p>${links}</p>`));
  for (let i = 0; i < PAGES; i++) site.page(`/docs/p${i}`, htmlPage(`Page ${i}`, `<p>Body of page ${i}.</p>${i % 3 === 0 ? `<p>${"A longer text. ".repeat(400)}</p>` : ""}`));
  await site.start();
});
afterAll(async () => site.stop());

const yaml = () => pipeline(`  - id: site\n    crawl: { url: "${site.url}/docs/", sitemap: skip, scrapeOptions: { formats: [markdown, links] } }\n`, "concurrency: 6\n");

/** Every file of a fixture by its path in it. */
function filesOf(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of (readdirSync(dir, { recursive: true }) as string[]).sort()) if (name.includes(".")) out[name] = readFileSync(join(dir, name));
  return out;
}

function documentsOf(db: string, runId: number): string {
  const pages = readDocuments(db, runId).sort((a, b) => (a.url < b.url ? -1 : 1));
  return JSON.stringify(pages.map((p) => [p.url, p.document]));
}

describe("the fixture's layout", () => {
  const first = join(workdir(), "first");
  let recorded = "";

  it("is the same, file for file and byte for byte, when the same site is recorded again", async () => {
    const a = await runYaml(yaml(), { record: first });
    if (!a.result.ok) throw new Error(JSON.stringify(a.result.diagnostics));
    expect(a.result.status).toBe("succeeded");
    recorded = documentsOf(a.db, a.result.runId);
    const second = join(workdir(), "second");
    const b = await runYaml(yaml(), { record: second });
    if (!b.result.ok) throw new Error(JSON.stringify(b.result.diagnostics));
    const files = filesOf(first);
    expect(Object.keys(files)).toContain("index.json");
    expect(Object.keys(files).length).toBeGreaterThan(2);
    expect(Object.keys(files).every((name) => name === "index.json" || /^bodies\/[0-9a-f]\.pack$/.test(name))).toBe(true);
    expect(filesOf(second)).toEqual(files);
  });

  it("of format 1 (a file per body) still replays, to the same documents", async () => {
    const old = join(workdir(), "old");
    cpSync(first, old, { recursive: true });
    toFormat1(old);
    expect(readdirSync(join(old, "bodies")).some((name) => name.endsWith(".gz"))).toBe(true);
    const replay = await runYaml(yaml(), { replay: old });
    if (!replay.result.ok) throw new Error(JSON.stringify(replay.result.diagnostics));
    expect(replay.result.status).toBe("succeeded");
    expect(documentsOf(replay.db, replay.result.runId)).toBe(recorded);
  });

  it("of format 1 becomes format 2 when recorded again: the same files as a fresh recording", async () => {
    const old = join(workdir(), "again");
    cpSync(first, old, { recursive: true });
    toFormat1(old);
    const again = await runYaml(yaml(), { record: old });
    if (!again.result.ok) throw new Error(JSON.stringify(again.result.diagnostics));
    expect(filesOf(old)).toEqual(filesOf(first));
  });

  it("holds no bodies of an earlier recording when a recording fetched none", async () => {
    const dir = join(workdir(), "none");
    cpSync(first, dir, { recursive: true });
    const failing = pipeline(`  - id: pages\n    scrape: { urls: ["http://127.0.0.1:9/gone"] }\n`).replace(/retry: \{[^}]*\}/, "retry: { attempts: 1 }");
    const run = await runYaml(failing, { record: dir });
    if (!run.result.ok) throw new Error(JSON.stringify(run.result.diagnostics));
    expect(Object.keys(filesOf(dir))).toEqual(["index.json"]);
    expect(JSON.parse(readFileSync(join(dir, "index.json"), "utf8")).requests["GET http://127.0.0.1:9/gone"]).toEqual({ error: expect.objectContaining({ kind: "network" }) });
  });

  it("of a format this version does not know is refused, naming the fix", async () => {
    const future = join(workdir(), "future");
    cpSync(first, future, { recursive: true });
    const index = JSON.parse(readFileSync(join(future, "index.json"), "utf8"));
    writeFileSync(join(future, "index.json"), JSON.stringify({ ...index, format: 3 }));
    await expect(runYaml(yaml(), { replay: future })).rejects.toThrow(`${join(future, "index.json")}: a fixture of format 3; this version replays formats 1 and 2: record it again with scrapeline run FILE --record DIR`);
  });

  it("names the pack and the byte where a shard is damaged", async () => {
    const damaged = join(workdir(), "damaged");
    cpSync(first, damaged, { recursive: true });
    const shard = readdirSync(join(damaged, "bodies"))[0]!;
    const data = readFileSync(join(damaged, "bodies", shard));
    writeFileSync(join(damaged, "bodies", shard), data.subarray(0, data.length - 10));
    const replay = await runYaml(yaml(), { replay: damaged });
    if (!replay.result.ok) throw new Error(JSON.stringify(replay.result.diagnostics));
    expect(replay.result.status).toBe("failed");
    const last = readPack(join(first, "bodies", shard)).length - 1;
    const at = data.indexOf(Buffer.from(`${readPack(join(first, "bodies", shard))[last]!.hash} `));
    expect(JSON.stringify(replay.events)).toContain(`${join(damaged, "bodies", shard)}: byte ${at}: not a body of a fixture pack`);
  });
});
