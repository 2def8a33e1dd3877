import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewCrawlParamsLocally } from "../../src/app/index.js";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "./helpers.js";

const site = new FixtureSite();
const llm = new FakeLlm();
beforeAll(async () => {
  const links = ["/blog/a", "/blog/b", "/blog/c", "/shop/x", "/shop/y"];
  site.page("/", htmlPage("Home", links.map((l) => `<a href="${l}">${l}</a>`).join(" ")));
  for (const l of links) site.page(l, htmlPage(l, `<p>${l}</p><a href="/">home</a>`));
  await site.start();
  await llm.start();
});
afterAll(async () => {
  await site.stop();
  await llm.stop();
});

const env = () => ({ SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "crawl-model" });

describe("crawl prompts read by a model", () => {
  it("applies the model's options, keeps the options written in the file, and drops the phrase reader's", async () => {
    llm.requests.length = 0;
    llm.answer({ content: JSON.stringify({ includePaths: ["^/blog/"], limit: 2, sitemap: "skip" }), tokens: 50 });
    const yaml = pipeline(`  - id: blog\n    crawl: { url: "${site.url}/", prompt: "only the shop section, at most 4 pages", limit: 3 }\n`);
    const { result, db } = await runYaml(yaml, { env: env() });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const urls = readDocuments(db, result.runId, "blog").map((d) => new URL(d.url).pathname).sort();
    // limit 3 is the file's; includePaths is the model's (the phrase reader would have taken the shop).
    expect(urls.filter((u) => u.startsWith("/shop"))).toEqual([]);
    expect(urls.length).toBe(3);
    const sent = llm.requests[0]!.body;
    expect(sent.model).toBe("crawl-model");
    expect(sent.response_format?.json_schema?.schema).toMatchObject({ properties: { includePaths: expect.any(Object), limit: expect.any(Object) } });
    expect(sent.messages.at(-1)!.content).toContain("only the shop section, at most 4 pages");
  });

  it("crawl-preview asks the model when one is configured, and the phrase reader otherwise", async () => {
    llm.answer({ content: JSON.stringify({ includePaths: ["^/docs/"], maxDiscoveryDepth: 2 }) });
    const byModel = await previewCrawlParamsLocally("https://example.com", "the docs, two levels deep", env());
    expect(byModel).toMatchObject({ source: "model", data: { url: "https://example.com/", includePaths: ["^/docs/"], maxDiscoveryDepth: 2 } });
    const byPhrases = await previewCrawlParamsLocally("https://example.com", "at most 50 pages", {});
    expect(byPhrases).toMatchObject({ source: "phrases", data: { limit: 50 } });
  });

  it("asks again when the model's paths are not regular expressions", async () => {
    llm.requests.length = 0;
    llm.answer({ content: JSON.stringify({ includePaths: ["(unclosed"] }) }, { content: JSON.stringify({ includePaths: ["^/ok/"] }) });
    const preview = await previewCrawlParamsLocally("https://example.com", "ok pages", env());
    expect(preview.data.includePaths).toEqual(["^/ok/"]);
    expect(llm.requests[1]!.body.messages.at(-1)!.content).toMatch(/is not a regular expression/);
  });
});
