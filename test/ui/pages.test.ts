import { existsSync, statSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUi, PHONE, screenshots, startUiCli } from "./browser.js";
import { monitoredDatabase, UiFixture } from "./fixture.js";


// Run inside the browser by page.evaluate: its globals, typed loosely (the project compiles without the DOM library).
declare const document: any;
declare const location: any;
declare function getComputedStyle(element: unknown): any;

/**
 * `scrapeline ui` (the built CLI) over a database filled by real runs against a loopback site,
 * visited in the system Chromium: each page's DOM, screenshots at desktop and phone sizes, the
 * keyboard, dark mode, and the pages with script off.
 */
const fixture = new UiFixture();
let ui: Awaited<ReturnType<typeof startUiCli>>;
let browser: Browser;
let opened: Awaited<ReturnType<typeof openUi>> | undefined;
let runs: { first: number; second: number };
let shotRun: number;
const problems: string[] = [];

beforeAll(async () => {
  await fixture.start(["/pricing", "/about", "/team", "/broken"]);
  runs = await monitoredDatabase(fixture);
  shotRun = await fixture.run("shots", `version: 1\nname: shots\nsteps:\n  - id: shot\n    scrape: { url: "{site}/about", formats: [markdown, html, screenshot] }\n`);
  opened = await openUi(fixture);
  ({ ui, browser } = opened);
}, 120_000);

afterAll(async () => {
  await (opened ? opened.close() : fixture.stop());
});

/** A new page that records console errors, page errors and CSP violations as problems. */
async function open(path: string, options: { javaScript?: boolean; dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: options.javaScript ?? true, colorScheme: options.dark ? "dark" : "light" });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`${path}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${path}: ${error.message}`));
  const response = await page.goto(`${ui.url}${path}`);
  expect(response!.status()).toBe(200);
  expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
  return page;
}

const site = (path: string) => `${fixture.site.url}${path}`;
const text = (page: Page, selector: string) => page.locator(selector).allInnerTexts();

describe("scrapeline ui in a browser", () => {
  it("prints its URL on loopback", () => {
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("lists runs newest first with their counts, and filters them", async () => {
    const page = await open("/");
    const ids = await page.locator("table.runs tbody tr").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-run"))));
    expect(ids).toEqual([shotRun, runs.second, runs.first]);
    const second = page.locator(`tr[data-run="${runs.second}"] td`);
    const cells = await second.allInnerTexts();
    // run, pipeline, status, started, duration, docs, failed, changed, new, removed, credits
    expect(cells[1]).toBe("monitor");
    expect(cells[2]).toBe("failed");
    expect(cells.slice(5, 10)).toEqual(["3", "1", "1", "0", "1"]);
    expect((await page.locator(`tr[data-run="${runs.first}"] td`).allInnerTexts()).slice(5, 10)).toEqual(["3", "1", "0", "3", "0"]);
    await screenshots(page, "runs");

    await page.selectOption("select[name=pipeline]", "shots");
    await Promise.all([page.waitForURL(/pipeline=shots/), page.click("form.filters button")]);
    expect(await page.locator("table.runs tbody tr").count()).toBe(1);
    await page.goto(`${ui.url}/?status=succeeded`);
    expect(await page.locator("table.runs tbody tr").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-run"))))).toEqual([shotRun]);
    await page.context().close();
  });

  it("shows a run: steps, failures with their reasons, credits and a link to each document", async () => {
    const page = await open(`/runs/${runs.second}`);
    expect(await page.locator("h1").innerText()).toContain(`Run #${runs.second}`);
    const step = await page.locator('tr[data-step="pages"] td').allInnerTexts();
    expect(step.slice(0, 7)).toEqual(["pages", "scrape", "failed", "3", "1", "0", "3"]);
    const failure = await page.locator("tr.failure td").allInnerTexts();
    expect(failure[1]).toBe(site("/broken"));
    expect(failure[3]).toMatch(/500/);
    const docs = await page.locator("table.documents a").allInnerTexts();
    expect(docs.sort()).toEqual([site("/about"), site("/pricing"), site("/team")].sort());
    const changes = await page.locator("table.documents tr").evaluateAll((rows) => rows.slice(1).map((r) => [r.querySelector("a")!.textContent, r.querySelector(".badge")?.textContent]));
    expect(Object.fromEntries(changes)).toEqual({ [site("/about")]: "same", [site("/pricing")]: "changed", [site("/team")]: "removed" });
    await screenshots(page, "run");
    await page.click(`a:text("${site("/pricing")}")`);
    await page.waitForURL(/\/doc\?/);
    expect(await page.locator("h1.url").innerText()).toBe(site("/pricing"));
    await page.context().close();
  });

  it("shows a document: rendered and raw markdown, metadata, links, and the diff against the previous version", async () => {
    const page = await open(`/runs/${runs.second}/doc?step=pages&url=${encodeURIComponent(site("/pricing"))}`);
    expect(await text(page, "article.markdown p")).toContain("Starter: 12 EUR");
    expect(await page.locator("#raw-markdown").innerText()).toContain("Starter: 12 EUR");
    expect(await page.locator("dl.meta").innerText()).toContain("statusCode");
    const aboutLink = page.locator("article.markdown a", { hasText: "About us" });
    expect(await aboutLink.getAttribute("href")).toBe(site("/about"));
    expect(await page.locator(".badge.change-changed").count()).toBeGreaterThan(0);
    expect(await text(page, ".diff td.text.del")).toContain("Starter: 10 EUR");
    expect(await text(page, ".diff td.text.add")).toContain("Starter: 12 EUR");
    expect(await page.locator("ul.links a").count()).toBeGreaterThan(0);
    await screenshots(page, "document");
    await page.context().close();
  });

  it("shows the changes of a run side by side and inline, the unchanged middle folded", async () => {
    const page = await open(`/runs/${runs.second}/changes`);
    const sections = await page.locator("section.change").evaluateAll((list) => list.map((s) => [s.getAttribute("data-url"), s.querySelector(".badge")!.textContent]));
    expect(Object.fromEntries(sections)).toEqual({ [site("/pricing")]: "changed", [site("/team")]: "removed" });
    const pricing = page.locator(`section.change[data-url="${site("/pricing")}"]`);
    // Side by side: the old line on the left of the new one, in one row.
    const row = pricing.locator(".diff-side tr.pair").first();
    expect(await row.locator("td.text").allInnerTexts()).toEqual(["Starter: 10 EUR", "Starter: 12 EUR"]);
    const fold = pricing.locator("details.fold").first();
    expect(await fold.locator("summary").innerText()).toMatch(/^\d+ unchanged line\(s\)$/);
    expect(await fold.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    await fold.locator("summary").click();
    expect(await fold.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    expect(await fold.innerText()).toContain("Feature line 6 is included.");
    const team = page.locator(`section.change[data-url="${site("/team")}"]`);
    expect(await team.locator("td.text.del").allInnerTexts()).toContain("Alice and Bob");
    await screenshots(page, "changes-side");

    await page.click('nav[aria-label="Diff layout"] a:text("Inline")');
    await page.waitForURL(/view=inline/);
    const inline = page.locator(`section.change[data-url="${site("/pricing")}"] .diff-inline`);
    expect(await inline.locator("tr.del td.text").allInnerTexts()).toContain("Starter: 10 EUR");
    expect(await inline.locator("tr.add td.text").allInnerTexts()).toContain("Starter: 12 EUR");
    expect(await inline.locator("tr.del td.mark").first().innerText()).toBe("-");
    // In the order of the text: the unchanged heading, then the deletion, then the addition.
    const order = await inline.locator(":scope > table > tbody > tr:not(.fold-row)").evaluateAll((rows) => rows.slice(0, 4).map((r) => `${r.className}:${r.querySelector("td.text")!.textContent}`));
    expect(order).toEqual(["same:# pricing", "same:", "del:Starter: 10 EUR", "add:Starter: 12 EUR"]);
    await screenshots(page, "changes-inline");

    await page.goto(`${ui.url}/runs/${runs.second}/changes?status=removed`);
    expect(await page.locator("section.change").count()).toBe(1);
    await page.context().close();
  });

  it("shows a page's versions on a timeline and compares any two", async () => {
    const page = await open(`/history?url=${encodeURIComponent(site("/pricing"))}`);
    expect(await page.locator("ol.timeline li").count()).toBe(2);
    expect(await text(page, ".diff td.text.add")).toContain("Starter: 12 EUR");
    await screenshots(page, "history");
    // Version 2 against itself: the same text.
    await page.locator('ol.timeline li[data-version="2"] input[name=a]').check();
    await page.locator('ol.timeline li[data-version="2"] input[name=b]').check();
    await Promise.all([page.waitForURL(/a=\d+&b=\d+/), page.click("button:text('Compare the chosen versions')")]);
    expect(await page.locator("main").innerText()).toContain("The two versions have the same text.");
    // The team page's history: its removal is a version too.
    await page.goto(`${ui.url}/history?url=${encodeURIComponent(site("/team"))}`);
    expect(await text(page, "ol.timeline li .muted")).toEqual(["status 200", "status 404"]);
    await page.context().close();
  });

  it("draws credits and changed pages per run as SVG charts, each bar a link to its run", async () => {
    const page = await open("/charts?pipeline=monitor");
    const credits = await page.locator("rect.bar-credits").evaluateAll((bars) => bars.map((b) => [b.getAttribute("data-run"), b.getAttribute("data-value")]));
    expect(credits).toEqual([[String(runs.first), "3"], [String(runs.second), "3"]]);
    const changed = await page.locator("rect.bar-changed").evaluateAll((bars) => bars.map((b) => Number(b.getAttribute("data-value"))));
    expect(changed).toEqual([3, 2]);
    const heights = await page.locator("rect.bar-changed").evaluateAll((bars) => bars.map((b) => Number(b.getAttribute("height"))));
    expect(heights[0]).toBeGreaterThan(heights[1]!);
    await screenshots(page, "charts");
    await page.context().close();
  });

  it("serves a stored screenshot from the database, and previews the stored HTML in a sandbox", async () => {
    const page = await open(`/runs/${shotRun}/doc?step=shot&url=${encodeURIComponent(site("/about"))}`);
    const image = page.locator(".shots img");
    await image.waitFor();
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    // The stored HTML, previewed in a sandboxed frame served under its own policy.
    const frame = page.locator("iframe.preview");
    expect(await frame.getAttribute("sandbox")).toBe("");
    expect(await page.frameLocator("iframe.preview").locator("strong").innerText()).toBe("things");
    const preview = await fetch(`${ui.url}${await frame.getAttribute("src")}`);
    expect(preview.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    await page.context().close();
  });

  it("is keyboard navigable: the first Tab reaches the skip link, and / reaches the filters", async () => {
    const page = await open(`/`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => location.hash)).toBe("#content");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("pipeline");
    await page.context().close();
  });

  it("follows the system's dark setting and fits a phone's width", async () => {
    const light = await open(`/runs/${runs.second}/changes`);
    const dark = await open(`/runs/${runs.second}/changes`, { dark: true });
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background(light)).toBe("rgb(255, 255, 255)");
    expect(await background(dark)).toBe("rgb(13, 17, 23)");
    await screenshots(dark, "changes-dark");
    for (const path of ["/", `/runs/${runs.second}`, `/runs/${runs.second}/doc?step=pages&url=${encodeURIComponent(site("/pricing"))}`, "/charts"]) {
      await light.setViewportSize(PHONE);
      await light.goto(`${ui.url}${path}`);
      const overflow = await light.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await light.context().close();
    await dark.context().close();
  });

  it("works with script off: pages, folds and the version form", async () => {
    const page = await open(`/history?url=${encodeURIComponent(site("/pricing"))}`, { javaScript: false });
    expect(await page.locator("ol.timeline li").count()).toBe(2);
    await page.locator('ol.timeline li[data-version="1"] input[name=b]').check();
    await page.locator('ol.timeline li[data-version="1"] input[name=a]').check();
    await Promise.all([page.waitForURL(/a=\d+&b=\d+/), page.click("button:text('Compare the chosen versions')")]);
    expect(await page.locator("main").innerText()).toContain("The two versions have the same text.");
    await page.goto(`${ui.url}/runs/${runs.second}/changes`);
    const fold = page.locator("details.fold").first();
    await fold.locator("summary").click();
    expect(await fold.innerText()).toContain("Feature line 6 is included.");
    await page.context().close();
  });

  it("wrote the screenshots and logged no console error, page error or CSP violation", () => {
    for (const name of ["runs", "run", "document", "changes-side", "changes-inline", "history", "charts", "changes-dark"]) {
      for (const size of ["desktop", "phone"]) expect(statSync(`test-artifacts/ui/${name}-${size}.png`).size).toBeGreaterThan(1000);
    }
    expect(existsSync("test-artifacts/ui")).toBe(true);
    expect(problems).toEqual([]);
  });
});
