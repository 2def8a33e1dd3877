import { afterEach, describe, expect, it } from "vitest";
import type { SearchRequest } from "../../../src/core/index.js";
import { searchSearxng } from "../../../src/engines/local/search/index.js";
import { FakeSearxng, webResults, type FakeSearxngOptions } from "../../helpers/searxng.js";

const request = (extra: Partial<SearchRequest> = {}): SearchRequest => ({ query: "llama farming", limit: 10, sources: [{ type: "web" }], timeout: 60_000, ignoreInvalidURLs: false, ...extra });

let fake: FakeSearxng | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

async function start(options: FakeSearxngOptions): Promise<FakeSearxng> {
  fake = await new FakeSearxng(options).start();
  return fake;
}

describe("SearXNG search", () => {
  it("reads pages until the limit, with SearXNG's parameters, positions from 1", async () => {
    const s = await start({ results: { general: webResults("https://example.com", 25) }, perPage: 10 });
    const answer = await searchSearxng(s.url, request({ limit: 23 }));
    expect(answer.data.web).toHaveLength(23);
    expect(answer.data.web![0]).toEqual({ url: "https://example.com/r1", title: "Result 1", description: "About result 1", position: 1 });
    expect(answer.data.web![22]!.position).toBe(23);
    expect(s.requests.map((p) => p.get("pageno"))).toEqual(["1", "2", "3"]);
    const first = s.requests[0]!;
    expect(Object.fromEntries(first)).toMatchObject({ q: "llama farming", format: "json", categories: "general", language: "en", safesearch: "0" });
    expect(first.has("time_range")).toBe(false);
    expect(answer.warnings).toEqual([]);
  });

  it("stops at a page that adds nothing, below the limit", async () => {
    const s = await start({ results: { general: webResults("https://example.com", 12) }, perPage: 10 });
    const answer = await searchSearxng(s.url, request({ limit: 50 }));
    expect(answer.data.web).toHaveLength(12);
    expect(s.requests).toHaveLength(3);
  });

  it("answers news and images in the service's shapes, one category each", async () => {
    const s = await start({
      results: {
        general: webResults("https://example.com", 2),
        news: [{ url: "https://news.example/a", title: " Llamas  win ", content: "A snippet", publishedDate: "2026-11-20T08:00:00", thumbnail: "//img.example/t.jpg" }, { url: "https://news.example/b", title: "No date", content: "x", publishedDate: null }],
        images: [{ url: "https://pics.example/page", title: "A llama", img_src: "//pics.example/llama.jpg", thumbnail_src: "https://pics.example/t.jpg", resolution: "1200 x 800" }, { url: "https://pics.example/none", title: "no image" }],
      },
    });
    const answer = await searchSearxng(s.url, request({ sources: [{ type: "web" }, { type: "news" }, { type: "images" }] }));
    expect(answer.data.news).toEqual([
      { title: "Llamas win", url: "https://news.example/a", snippet: "A snippet", date: "2026-11-20T08:00:00", imageUrl: "https://img.example/t.jpg", position: 1 },
      { title: "No date", url: "https://news.example/b", snippet: "x", position: 2 },
    ]);
    expect(answer.data.images).toEqual([{ title: "A llama", imageUrl: "https://pics.example/llama.jpg", imageWidth: 1200, imageHeight: 800, url: "https://pics.example/page", position: 1 }]);
    expect(answer.data.web).toHaveLength(2);
    expect(s.requests.filter((p) => p.get("pageno") === "1").map((p) => p.get("categories"))).toEqual(["general", "news", "images"]);
  });

  it("maps tbs to time_range (a source's own tbs first) and says the hour became a day", async () => {
    const s = await start({ results: { general: webResults("https://example.com", 1), news: webResults("https://n.example", 1) } });
    const answer = await searchSearxng(s.url, request({ tbs: "qdr:w", sources: [{ type: "web" }, { type: "news", tbs: "qdr:h" }], lang: "de", country: "at" }));
    const firstPages = s.requests.filter((p) => p.get("pageno") === "1");
    expect(firstPages.map((p) => [p.get("categories"), p.get("time_range")])).toEqual([["general", "week"], ["news", "day"]]);
    expect(s.requests[0]!.get("language")).toBe("de-AT");
    expect(answer.warnings.join(" ")).toMatch(/qdr:h returned results of the past day/);
  });

  it("sends domain filters and categories as query terms and keeps only results on the included domains", async () => {
    const s = await start({ results: { general: [...webResults("https://docs.example.org", 2), ...webResults("https://other.example", 2), { url: "https://sub.docs.example.org/x", title: "Sub" }] } });
    const answer = await searchSearxng(s.url, request({ includeDomains: ["docs.example.org", "github.com"], categories: ["pdf"] }));
    expect(s.requests[0]!.get("q")).toBe("llama farming (site:docs.example.org OR site:github.com) filetype:pdf");
    expect(answer.data.web!.map((r) => r.url)).toEqual(["https://docs.example.org/r1", "https://docs.example.org/r2", "https://sub.docs.example.org/x"]);
    expect(answer.data.web!.map((r) => r.position)).toEqual([1, 2, 3]);

    const excluded = await searchSearxng(s.url, request({ excludeDomains: ["other.example"], categories: ["github"] }));
    expect(s.requests.at(-1)!.get("q")).toBe("llama farming -site:other.example site:github.com");
    expect(excluded.data.web!.map((r) => r.url)).not.toContain("https://other.example/r1");
  });

  it("labels web results with the category they belong to when categories are asked", async () => {
    const s = await start({ results: { general: [{ url: "https://github.com/a/b", title: "repo" }, { url: "https://arxiv.org/abs/1", title: "paper" }, { url: "https://x.example/doc.pdf", title: "pdf" }] } });
    const answer = await searchSearxng(s.url, request({ categories: ["github", "research", "pdf"] }));
    expect(answer.data.web!.map((r) => r.category)).toEqual(["github", "research", "pdf"]);
  });

  it("reports engines that did not answer as a warning and keeps the others' results", async () => {
    const s = await start({ results: { general: webResults("https://example.com", 3) }, failing: [["google", "CAPTCHA"], ["bing", "timeout"]] });
    const answer = await searchSearxng(s.url, request());
    expect(answer.data.web).toHaveLength(3);
    expect(answer.warnings).toEqual(["some of SearXNG's search engines did not answer: google (CAPTCHA), bing (timeout)"]);
  });

  it("answers empty with a warning when every engine failed", async () => {
    const s = await start({ failing: [["google", "CAPTCHA"], ["duckduckgo", "too many requests"]] });
    const answer = await searchSearxng(s.url, request());
    expect(answer.data).toEqual({ web: [] });
    expect(answer.warnings).toEqual(["no results: every search engine SearXNG asked failed: google (CAPTCHA), duckduckgo (too many requests)"]);
  });

  it("explains a 403 (JSON output not enabled) with the fix", async () => {
    const s = await start({ jsonDisabled: true });
    await expect(searchSearxng(s.url, request())).rejects.toMatchObject({ kind: "invalid-input", message: expect.stringMatching(/JSON output is not enabled.*search\.formats.*settings\.yml/) });
  });

  it("fails with a timeout when SearXNG does not answer in time", async () => {
    const s = await start({ results: { general: webResults("https://example.com", 1) }, delayMs: 3000 });
    await expect(searchSearxng(s.url, request({ timeout: 1000 }))).rejects.toMatchObject({ kind: "timeout", message: expect.stringContaining("did not answer within 1000 ms") });
  });

  it("without SCRAPELINE_SEARXNG_URL names the variable and how to start SearXNG", async () => {
    await expect(searchSearxng(undefined, request())).rejects.toMatchObject({ kind: "unsupported", message: expect.stringMatching(/SCRAPELINE_SEARXNG_URL.*docker run .*searxng\/searxng/) });
  });

  it("says when SearXNG cannot be reached", async () => {
    const s = await start({});
    const url = s.url;
    await s.stop();
    fake = undefined;
    await expect(searchSearxng(url, request())).rejects.toMatchObject({ kind: "network", message: expect.stringContaining(`cannot reach SearXNG at ${url}`) });
  });
});
