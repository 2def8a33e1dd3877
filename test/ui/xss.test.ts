import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUi, startUiCli } from "./browser.js";
import { TRACKED, UiFixture } from "./fixture.js";
import { PAYLOADS, storeHostileMonitor, storeHostileRun } from "./hostile.js";


// Run inside the browser by page.evaluate: its globals, typed loosely (the project compiles without the DOM library).
declare const document: any;
declare const location: any;
declare const window: any;
declare function getComputedStyle(element: unknown): any;

/**
 * Scraped content is hostile. Pages full of XSS payloads, stored by real runs and written
 * straight into the store (so that every field the UI shows holds one), are visited in Chromium:
 * nothing may run. Each payload calls a binding or sets a window flag if it executes. The pages
 * are visited twice: as served (with the Content-Security-Policy) and with the policy bypassed,
 * so that escaping and sanitizing alone are shown to hold.
 */
const fixture = new UiFixture();
let ui: Awaited<ReturnType<typeof startUiCli>>;
let browser: Browser;
let opened: Awaited<ReturnType<typeof openUi>> | undefined;
let hostile: { runId: number; url: string; stepId: string };
let crawled: number;
let monitor: number;

const SITE_PAGE = (n: number) => `<p>Price ${n}: ${PAYLOADS.map((p) => p.replace(/&/g, "&amp;").replace(/</g, "&lt;")).join(" ")}</p>
<p>Raw payloads: ${PAYLOADS.join(" ")}</p>
<p><a href="javascript:window.xssHit('site-a')">a script link</a> and <a href="data:text/html,<script>window.xssHit('site-data')</script>">data</a></p>
<img src="x" alt="&quot; onerror=&quot;window.xssHit('alt')" onerror="window.xssHit('site-img')">`;

beforeAll(async () => {
  await fixture.start(["/evil"]);
  const yaml = `version: 1\nname: evil-site\nretry: { attempts: 1 }\nsteps:\n  - id: evil\n    scrape: { url: "{site}/evil", formats: [markdown, links, ${TRACKED}] }\n`;
  fixture.pages.set("/evil", { body: SITE_PAGE(1), title: `</title><script>window.xssHit('title')</script>` });
  await fixture.run("evil", yaml);
  fixture.pages.set("/evil", { body: SITE_PAGE(2), title: `</title><script>window.xssHit('title')</script>` });
  crawled = await fixture.run("evil", yaml);
  hostile = storeHostileRun(fixture.db);
  monitor = storeHostileMonitor(fixture.db, hostile.runId);
  opened = await openUi(fixture);
  ({ ui, browser } = opened);
}, 120_000);

afterAll(async () => {
  await (opened ? opened.close() : fixture.stop());
});

function paths(): string[] {
  const doc = (runId: number, step: string, url: string) => `/runs/${runId}/doc?step=${encodeURIComponent(step)}&url=${encodeURIComponent(url)}`;
  const evil = `${fixture.site.url}/evil`;
  return [
    "/",
    `/?pipeline=${encodeURIComponent("<script>window.xssHit('filter')</script>")}`,
    `/runs/${crawled}`,
    `/runs/${crawled}/changes`,
    `/runs/${crawled}/changes?view=inline`,
    doc(crawled, "evil", evil),
    `/history?url=${encodeURIComponent(evil)}`,
    `/runs/${hostile.runId - 1}`,
    `/runs/${hostile.runId}`,
    `/runs/${hostile.runId}/changes`,
    `/runs/${hostile.runId}/changes?view=inline`,
    doc(hostile.runId, hostile.stepId, hostile.url),
    `${doc(hostile.runId, hostile.stepId, hostile.url)}&view=inline`,
    doc(hostile.runId - 1, hostile.stepId, hostile.url),
    `/history?url=${encodeURIComponent(hostile.url)}`,
    `/charts?pipeline=${encodeURIComponent("evil<script>window.xssHit('pipeline')</script>")}`,
    `/runs/${hostile.runId}/doc?step=${encodeURIComponent("<script>window.xssHit('404')</script>")}&url=x`,
    "/monitors",
    `/monitors/${monitor}`,
  ];
}

/** Visits every page in a context, hovering, focusing and opening everything, and returns what ran. */
async function visitAll(context: BrowserContext): Promise<{ hits: string[]; flags: string[]; dom: string[] }> {
  const hits: string[] = [];
  await context.exposeBinding("xssHit", (_source, what: unknown) => void hits.push(String(what)));
  const flags: string[] = [];
  const dom: string[] = [];
  const page: Page = await context.newPage();
  page.on("dialog", (dialog) => {
    hits.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  for (const path of paths()) {
    await page.goto(`${ui.url}${path}`, { waitUntil: "load" });
    // Give handlers their chances: open every fold, hover and focus every element that could carry one.
    await page.evaluate(() => {
      for (const d of document.querySelectorAll("details")) d.open = true;
    });
    // The mouse goes over each visible one (a hidden element cannot be hovered, and is not waited
    // for); `force` moves it there at once instead of waiting for the element to hold still.
    for (const element of await page.locator("main a, main span, main code, main td, main img").all().then((all) => all.slice(0, 30))) {
      if (await element.isVisible()) await element.hover({ force: true, timeout: 500 }).catch(() => undefined);
    }
    await page.waitForLoadState("networkidle");
    if (await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss !== undefined)) flags.push(path);
    dom.push(
      ...(await page.evaluate((path) => {
        const found: string[] = [];
        for (const el of document.querySelectorAll("*")) {
          for (const attr of el.getAttributeNames()) if (/^on/i.test(attr)) found.push(`${path}: ${el.tagName} has ${attr}`);
          if (el.tagName === "SCRIPT" && el.getAttribute("src") !== document.querySelector("link[rel=stylesheet]")!.getAttribute("href")!.replace("ui.css", "ui.js")) found.push(`${path}: a script ${el.outerHTML.slice(0, 80)}`);
          const ours = (el.tagName === "FORM" && (el.getAttribute("action") ?? "").startsWith("/")) || (el.tagName === "IFRAME" && el.getAttribute("sandbox") === "" && /^\/runs\/\d+\/preview\?/.test(el.getAttribute("src") ?? ""));
          if (["IFRAME", "OBJECT", "EMBED", "STYLE", "BASE", "FORM"].includes(el.tagName) && !ours) found.push(`${path}: a ${el.tagName}`);
          if (el.tagName === "svg" && !el.classList.contains("chart")) found.push(`${path}: an svg`);
        }
        for (const a of document.querySelectorAll("a[href]")) {
          const href = new URL(a.getAttribute("href")!, location.href).href;
          if (!/^(https?:|mailto:)/.test(href)) found.push(`${path}: a link to ${href.slice(0, 60)}`);
        }
        for (const img of document.querySelectorAll("img")) if (!(img as unknown as { src: string }).src.startsWith(location.origin)) found.push(`${path}: an image from ${(img as unknown as { src: string }).src}`);
        return found;
      }, path)),
    );
  }
  return { hits, flags, dom };
}

describe("hostile content in the UI", () => {
  it("stored pages full of payloads show them as text", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui.url}/runs/${hostile.runId}/doc?step=${encodeURIComponent(hostile.stepId)}&url=${encodeURIComponent(hostile.url)}`);
    const raw = await page.locator("#raw-markdown").innerText();
    for (const payload of PAYLOADS) expect(raw).toContain(payload);
    expect(await page.locator("article.markdown").innerText()).toContain(`<script>window.xssHit("script")</script>`);
    expect(await page.locator("h1.url").innerText()).toBe(hostile.url);
    expect(await page.locator("iframe.preview").getAttribute("sandbox")).toBe("");
    // json mode's field changes, as a table of text.
    const fields = await page.locator("table.json-changes td").allInnerTexts();
    expect(fields).toEqual([PAYLOADS[0], JSON.stringify(PAYLOADS[1]), JSON.stringify(PAYLOADS[2])]);
    // A monitor's name, file, cron, errors and notification targets, as text.
    expect((await page.goto(`${ui.url}/monitors`))!.status()).toBe(200);
    expect(await page.locator(`tr[data-monitor="${monitor}"] a`).innerText()).toBe(`evil ${PAYLOADS[0]}`);
    expect(await page.locator(`tr[data-monitor="${monitor}"] td[data-col="cron"]`).innerText()).toBe(`0 6 * * ${PAYLOADS[1]}`);
    expect((await page.goto(`${ui.url}/monitors/${monitor}`))!.status()).toBe(200);
    expect(await page.locator("h1").innerText()).toBe(`evil ${PAYLOADS[0]}`);
    expect(await page.locator("table.checks td.reason").innerText()).toBe(PAYLOADS.join(" "));
    expect(await page.locator("table.notifications td.reason").innerText()).toBe(PAYLOADS.join(" "));
    expect(await page.locator("table.notifications code").innerText()).toBe(`https://x.example/${PAYLOADS[5]}`);
    await context.close();
  });

  it("nothing executes with the Content-Security-Policy, and the DOM holds no handler, script, frame or script link", async () => {
    const result = await visitAll(await browser.newContext());
    expect(result.hits).toEqual([]);
    expect(result.flags).toEqual([]);
    expect(result.dom).toEqual([]);
  }, 120_000);

  it("nothing executes with the policy bypassed: escaping and sanitizing hold on their own", async () => {
    const result = await visitAll(await browser.newContext({ bypassCSP: true }));
    expect(result.hits).toEqual([]);
    expect(result.flags).toEqual([]);
    expect(result.dom).toEqual([]);
  }, 120_000);

  it("the binding the payloads call does fire when called (the check can fail)", async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const hits: string[] = [];
    await context.exposeBinding("xssHit", (_source, what: unknown) => void hits.push(String(what)));
    const page = await context.newPage();
    await page.goto(`${ui.url}/`);
    await page.evaluate(() => (window as unknown as { xssHit: (s: string) => Promise<void> }).xssHit("probe"));
    expect(hits).toEqual(["probe"]);
    await context.close();
  });
});
