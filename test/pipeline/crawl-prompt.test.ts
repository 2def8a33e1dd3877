import { describe, expect, it } from "vitest";
import { readCrawlPrompt } from "../../src/pipeline/step-kinds/crawl-prompt.js";

const read = (prompt: string) => readCrawlPrompt(prompt).options;

describe("readCrawlPrompt", () => {
  it.each([
    ["only blog posts", { includePaths: ["^/(?:blog|posts)(?:/|$)"] }],
    ["Only the documentation", { includePaths: ["^/(?:docs|documentation)(?:/|$)"] }],
    ["just pages under /docs/api", { includePaths: ["^/docs/api(?:/|$)"] }],
    ["only /guides", { includePaths: ["^/guides(?:/|$)"] }],
    ["only recipes", { includePaths: ["^/recipes(?:/|$)"] }],
    ["at most 50 pages", { limit: 50 }],
    ["up to 1,000 pages", { limit: 1000 }],
    ["no more than twenty pages", { limit: 20 }],
    ["crawl the first 100 pages", { limit: 100 }],
    ["two levels deep", { maxDiscoveryDepth: 2 }],
    ["max depth of 3", { maxDiscoveryDepth: 3 }],
    ["one click away from the start", { maxDiscoveryDepth: 1 }],
    ["include subdomains", { allowSubdomains: true }],
    ["the docs and its subdomains too", { allowSubdomains: true }],
    ["skip the sitemap", { sitemap: "skip" }],
    ["don't use the sitemap.xml", { sitemap: "skip" }],
    ["only the sitemap", { sitemap: "only" }],
    ["crawl the entire site", { crawlEntireDomain: true }],
    ["follow external links", { allowExternalLinks: true }],
    ["ignore query parameters", { ignoreQueryParameters: true }],
    ["wait 2 seconds between requests", { delay: 2 }],
    ["a delay of 0.5 s", { delay: 0.5 }],
    ["everything except the careers pages", { excludePaths: ["^/(?:careers|jobs)(?:/|$)"] }],
    ["skip /legal", { excludePaths: ["^/legal(?:/|$)"] }],
  ])("%s", (prompt, expected) => {
    expect(read(prompt)).toEqual(expected);
  });

  it("reads several options from one sentence and names the phrase behind each", () => {
    const reading = readCrawlPrompt("Only blog posts, at most 50 pages, two levels deep, include subdomains and skip the sitemap");
    expect(reading.options).toEqual({
      includePaths: ["^/(?:blog|posts)(?:/|$)"],
      limit: 50,
      maxDiscoveryDepth: 2,
      allowSubdomains: true,
      sitemap: "skip",
    });
    expect(reading.matched.map((m) => m.option).sort()).toEqual(["allowSubdomains", "includePaths", "limit", "maxDiscoveryDepth", "sitemap"]);
    expect(reading.matched.find((m) => m.option === "limit")?.phrase).toBe("at most 50 pages");
  });

  it("does not read a limit or the sitemap as a path", () => {
    expect(read("only 10 pages")).toEqual({ limit: 10 });
    expect(read("only the sitemap, no more than 5 pages")).toEqual({ sitemap: "only", limit: 5 });
    expect(read("skip the sitemap")).not.toHaveProperty("excludePaths");
  });

  it("recognises nothing in a prompt with no crawl options", () => {
    expect(readCrawlPrompt("find me interesting things")).toEqual({ options: {}, matched: [] });
    expect(readCrawlPrompt("")).toEqual({ options: {}, matched: [] });
  });

  it("produces patterns that compile and match the section", () => {
    const { includePaths } = read("only the blog");
    const re = new RegExp(includePaths![0]!);
    expect(re.test("/blog")).toBe(true);
    expect(re.test("/blog/2024/hello")).toBe(true);
    expect(re.test("/blogroll")).toBe(false);
    expect(re.test("/about")).toBe(false);
  });

  it("stays linear on long hostile prompts", () => {
    const prompt = "only ".repeat(5000) + "a".repeat(10_000);
    expect(() => readCrawlPrompt(prompt)).not.toThrow();
  });
});
