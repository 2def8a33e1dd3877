import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "../../run/helpers.js";

/**
 * A site whose content links reach 8 pages; two more are linked only from the header navigation
 * and the footer, as a site's "About" and "Contact" pages often are.
 */
const site = new FixtureSite();
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>` +
  `<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>` +
  `<main><h1>${title}</h1><p>Some words about ${title}, so that this is the main content of the page.</p>${body}</main>` +
  `<footer><a href="/contact">Contact</a> © site</footer></body></html>`;
const list = (paths: string[]) => `<ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join("")}</ul>`;

beforeAll(async () => {
  site.page("/", page("Home", list(["/p1", "/p2", "/p3"])));
  for (let i = 1; i <= 3; i++) site.page(`/p${i}`, page(`Product ${i}`, list([`/p${i}/specs`])));
  site.page("/p1/specs", page("Specs 1", "")).page("/p2/specs", page("Specs 2", "")).page("/p3/specs", page("Specs 3", "")).page("/spare", page("Spare", ""));
  site.page("/about", page("About", "")).page("/contact", page("Contact", ""));
  await site.start();
});
afterAll(() => site.stop());

const crawl = (options: string) => `  - id: site\n    crawl: { url: "${site.url}/", sitemap: skip, crawlEntireDomain: true${options} }\n`;

async function crawled(options = ""): Promise<{ urls: string[]; docs: ReturnType<typeof readDocuments> }> {
  const { result, db } = await runYaml(pipeline(crawl(options)));
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  const docs = readDocuments(db, result.runId, "site");
  return { urls: docs.map((d) => new URL(d.url).pathname).sort(), docs };
}

const ALL = ["/", "/about", "/contact", "/p1", "/p1/specs", "/p2", "/p2/specs", "/p3", "/p3/specs"];

describe("crawl discovery", () => {
  it("follows links anywhere on the page, with the default onlyMainContent", async () => {
    const { urls, docs } = await crawled();
    expect(urls).toEqual(ALL);
    // The stored markdown is still the main content only.
    const home = docs.find((d) => new URL(d.url).pathname === "/")!;
    expect(home.document.markdown).toContain("Some words about Home");
    expect(home.document.markdown).not.toContain("Contact");
  });

  it("follows them too when includeTags or excludeTags shape the document", async () => {
    expect((await crawled(", scrapeOptions: { includeTags: [main] }")).urls).toEqual(ALL);
    expect((await crawled(", scrapeOptions: { excludeTags: [nav, footer], onlyMainContent: false }")).urls).toEqual(ALL);
  });
});

describe("a crawl's pages and what it follows", () => {
  it("store the links format of the cleaned content, as the service's, and never the page's links it followed", async () => {
    const { urls, docs } = await crawled(", scrapeOptions: { formats: [markdown, links], onlyMainContent: false, excludeTags: [nav, footer] }");
    expect(urls).toEqual(ALL);
    const home = docs.find((d) => new URL(d.url).pathname === "/")!;
    expect(home.document.links).toEqual(["/p1", "/p2", "/p3"].map((p) => `${site.url}${p}`));
    expect(home.document).not.toHaveProperty("pageLinks");
    // Without the links format, no links are stored at all.
    const plain = await crawled();
    for (const doc of plain.docs) {
      expect(doc.document).not.toHaveProperty("links");
      expect(doc.document).not.toHaveProperty("pageLinks");
    }
  });

  it("a scrape's cache entry of a page does not answer a crawl that needs the page's links", async () => {
    const yaml = pipeline(`  - id: first\n    scrape: { url: "${site.url}/" }\n` + crawl("").replace("id: site", "id: site\n    needs: [first]"));
    const { result, db } = await runYaml(yaml);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(readDocuments(db, result.runId, "site").map((d) => new URL(d.url).pathname).sort()).toEqual(ALL);
  });
});
