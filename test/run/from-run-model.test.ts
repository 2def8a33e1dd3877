import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { finish, pipeline, readDocuments, workdir } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();

beforeAll(async () => {
  site.page("/product", htmlPage("Kettle", "<p>The Kettle costs 30 EUR.</p>"));
  site.page("/", htmlPage("Home", '<p><a href="/product">Kettle</a> <a href="/about">About</a></p>'));
  site.page("/about", htmlPage("About", "<p>About the shop.</p>"));
  site.route("/sitemap.xml", (_req, res) => res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/product</loc></url></urlset>`));
  await site.start();
  // The answer names what the prompt asked for, so a changed prompt shows in the data.
  llm.fallback = (request) => ({ content: request.body.messages.some((m) => m.content.includes("colour")) ? '{"colour":"red"}' : '{"price":30}', tokens: 10 });
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

function yaml(prompt: string): string {
  return pipeline(
    `  - id: site\n    map: { url: "${site.url}/", limit: 10 }\n` +
      `  - id: product\n    scrape: { url: "${site.url}/product", formats: [markdown, { type: json, prompt: "${prompt}" }] }\n`,
  );
}

async function cli(dir: string, text: string, ...args: string[]) {
  const file = join(dir, "shop.yaml");
  writeFileSync(file, text);
  const env = { ...process.env, SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "m" };
  return finish(spawn(process.execPath, ["dist/cli/main.js", "run", file, "--db", join(dir, "shop.db"), "--allow-private-network", ...args], { stdio: ["ignore", "pipe", "pipe"], env }));
}

describe("run --from-run with a model", () => {
  const dir = workdir();
  const db = join(dir, "shop.db");
  const fixture = join(dir, "fixture");

  it("asks the model again about the stored page (a changed prompt takes effect); a map is answered from what was stored", async () => {
    const live = await cli(dir, yaml("the price"), "--record", fixture);
    expect(live.code, live.err).toBe(0);
    const asked = llm.requests.length;
    const hits = [...site.hits.values()].reduce((a, b) => a + b, 0);

    const changed = await cli(dir, yaml("the colour"), "--from-run", "latest");
    expect(changed.code, changed.err).toBe(0);
    expect(llm.requests.length).toBe(asked + 1);
    expect([...site.hits.values()].reduce((a, b) => a + b, 0)).toBe(hits);
    expect(readDocuments(db, 2, "product")[0]!.document.json).toEqual({ colour: "red" });
    expect(readDocuments(db, 1, "product")[0]!.document.json).toEqual({ price: 30 });
    const links = (runId: number) => readDocuments(db, runId, "site")[0]!.document.links;
    expect(links(1)).toEqual(expect.arrayContaining([`${site.url}/product`, `${site.url}/about`]));
    expect(links(2)).toEqual(links(1));
  });

  it("with --replay as well, the model's answers come from the fixture and the pages from the database", async () => {
    await llm.stop();
    await site.stop();
    const replayed = await cli(dir, yaml("the price"), "--from-run", "1", "--replay", fixture);
    expect(replayed.code, replayed.err).toBe(0);
    const runId = 3;
    expect(readDocuments(db, runId, "product")[0]!.document.json).toEqual({ price: 30 });
  });
});
