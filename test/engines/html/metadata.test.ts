import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

const metadata = (html: string) => run(html, { want: {} }).metadata;

describe("metadata", () => {
  it("reads title, language, description, keywords, robots and an absolute favicon", () => {
    const html = `<html lang="en-GB"><head><title> My
      Page &amp; more </title><meta name="description" content="About it"><meta name="keywords" content="a, b">
      <meta name="robots" content="noindex"><link rel="shortcut icon" href="/s.ico"><link rel="icon" href="img/fav.png"></head></html>`;
    expect(metadata(html)).toEqual({
      title: "My Page & more",
      language: "en-GB",
      favicon: "https://example.com/blog/img/fav.png",
      description: "About it",
      keywords: "a, b",
      robots: "noindex",
    });
  });

  it("maps og:, twitter:, article: and Dublin Core names to camelCase and keeps the raw names", () => {
    const html = `<meta property="og:title" content="OG"><meta property="og:site_name" content="Site">
      <meta name="twitter:card" content="summary"><meta property="article:published_time" content="2024-01-02">
      <meta property="article:modified_time" content="2024-02-03"><meta property="article:section" content="Tech">
      <meta name="dcterms.created" content="2020"><meta name="DC.date.created" content="2019"><meta itemprop="author" content="Ann">`;
    expect(metadata(html)).toEqual({
      ogTitle: "OG", "og:title": "OG",
      ogSiteName: "Site", "og:site_name": "Site",
      twitterCard: "summary", "twitter:card": "summary",
      publishedTime: "2024-01-02", "article:published_time": "2024-01-02",
      modifiedTime: "2024-02-03", "article:modified_time": "2024-02-03",
      articleSection: "Tech", "article:section": "Tech",
      dcTermsCreated: "2020", "dcterms.created": "2020",
      dcDateCreated: "2019", "DC.date.created": "2019",
      author: "Ann",
    });
  });

  it("collects repeated names into arrays and joins repeated descriptions with a comma", () => {
    const html = `<meta name="description" content="one"><meta name="description" content="two">
      <meta property="og:locale:alternate" content="fr_FR"><meta property="og:locale:alternate" content="de_DE">
      <meta name="keywords" content="k1"><meta name="keywords" content="k2">`;
    expect(metadata(html)).toEqual({
      description: "one, two",
      ogLocaleAlternate: ["fr_FR", "de_DE"],
      "og:locale:alternate": ["fr_FR", "de_DE"],
      keywords: ["k1", "k2"],
    });
  });

  it("skips metas without a name or content, and reads metas outside the head", () => {
    expect(metadata('<meta charset="utf-8"><meta name="empty"><body><meta itemprop="price" content="9"></body>')).toEqual({ price: "9" });
  });

  it("is produced even when nothing else is requested, and for empty input", () => {
    expect(metadata("")).toEqual({});
  });
});

describe("metadata from the page's structured data (JSON-LD)", () => {
  const ld = (data: unknown, type = "application/ld+json") => `<script type="${type}">${typeof data === "string" ? data : JSON.stringify(data)}</script>`;
  const page = (head: string) => `<html><head><title>T</title>${head}</head><body><article><p>Body text of the story.</p></article></body></html>`;

  it("takes the article's author and dates when no meta tag states them", () => {
    const data = { "@context": "https://schema.org", "@type": "NewsArticle", headline: "H", author: [{ "@type": "Person", name: "Jane  Doe" }, { "@type": "Person", name: "John Roe" }], datePublished: "2019-11-18T23:04:00Z", dateModified: "2019-11-19T08:00:00Z" };
    expect(metadata(page(ld(data)))).toMatchObject({ author: "Jane Doe, John Roe", publishedTime: "2019-11-18T23:04:00Z", modifiedTime: "2019-11-19T08:00:00Z" });
  });

  it("follows @graph lists and @id references to the author", () => {
    const data = { "@context": "https://schema.org", "@graph": [{ "@type": "WebPage", "@id": "#page", datePublished: "2000-01-01" }, { "@type": ["BlogPosting"], author: { "@id": "#jane" }, datePublished: "2021-05-06" }, { "@type": "Person", "@id": "#jane", name: "Jane Doe" }] };
    expect(metadata(page(ld(data)))).toMatchObject({ author: "Jane Doe", publishedTime: "2021-05-06" });
  });

  it("keeps what the meta tags say over the structured data", () => {
    const head = `<meta name="author" content="Meta Author"><meta property="article:published_time" content="2024-01-02">${ld({ "@type": "Article", author: "Other", datePublished: "1999-01-01" })}`;
    expect(metadata(page(head))).toMatchObject({ author: "Meta Author", publishedTime: "2024-01-02" });
    // An empty meta tag states nothing.
    expect(metadata(page(`<meta name="author" content="">${ld({ "@type": "Article", author: "Stated" })}`))).toMatchObject({ author: "Stated" });
  });

  it("ignores malformed data, other types and other scripts, and never shows the data in the content", () => {
    const head = `${ld("{ not json")}${ld({ "@type": "Organization", name: "Org", author: "Nobody" })}${ld({ "@type": "Article", author: "Not data" }, "text/javascript")}`;
    const result = run(page(head), { want: { markdown: true } });
    expect(result.metadata["author"]).toBeUndefined();
    expect(result.metadata["publishedTime"]).toBeUndefined();
    expect(result.markdown).not.toMatch(/Org|Nobody|not json/);
    // A line break inside a string (invalid JSON, common in templates) does not lose the data.
    expect(metadata(page(ld('{"@type": "Article", "author": {"name": "Line\nBreak"}, "datePublished": "2020-02-02"}')))).toMatchObject({ author: "Line Break", publishedTime: "2020-02-02" });
  });
});

describe("the author from the byline a page shows", () => {
  const page = (byline: string, head = "") => `<html><head><title>T</title>${head}</head><body><article><h1>Headline</h1><div class="byline">${byline}</div>${Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i} of the story, with enough words, commas, and detail to read as prose, which is what a reader came for.</p>`).join("")}</article></body></html>`;
  const main = (html: string) => run(html, { onlyMainContent: true, want: { markdown: true } });

  it("takes the names and leaves the byline out of the content", () => {
    const result = main(page("By Jane Doe and John Roe | Nov. 18, 2019"));
    expect(result.metadata["author"]).toBe("Jane Doe and John Roe");
    expect(result.markdown).not.toContain("Jane Doe");
    expect(main(page("Von Erika Mustermann")).metadata["author"]).toBe("Erika Mustermann");
  });

  it("keeps a stated author, and reads nothing from a byline that is not names", () => {
    expect(main(page("By Jane Doe", `<meta name="author" content="Stated Author">`)).metadata["author"]).toBe("Stated Author");
    expect(main(page("Updated 11/18/19 11:04 PM")).metadata["author"]).toBeUndefined();
    // Without onlyMainContent the byline is content and no author is guessed from it.
    expect(run(page("By Jane Doe"), { want: { markdown: true } }).metadata["author"]).toBeUndefined();
  });
});
