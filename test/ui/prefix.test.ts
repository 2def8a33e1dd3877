import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "../server/helpers.js";
import { launchChromium } from "./browser.js";

// Run inside the browser by page.evaluate: its globals, typed loosely (the project compiles without the DOM library).
declare const document: any;

/**
 * serve behind a reverse proxy that publishes it under /scrape (and strips the prefix before
 * forwarding): with --public-url http://<proxy>/scrape, every link and redirect of /ui carries the
 * prefix, so a browser that only reaches the proxy can use every page.
 */
const PREFIX = "/scrape";
let proxy: Server;
let proxyUrl: string;
let serve: Serve;
let browser: Browser;
let context: BrowserContext;
const site = new FixtureSite();
const reached: string[] = [];

beforeAll(async () => {
  site.page("/alpha", htmlPage("Alpha", "<p>Alpha's page</p>"));
  await site.start();
  let target = 0;
  proxy = createServer((req, res) => {
    const path = req.url ?? "/";
    reached.push(path);
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return void res.writeHead(404).end("not published here\n");
    const upstream = request({ host: "127.0.0.1", port: target, method: req.method, path: path.slice(PREFIX.length) || "/", headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  serve = await startServe({ alpha: {} }, { publicUrl: `${proxyUrl}${PREFIX}/` });
  target = serve.server.port;
  const r = await serve.call("POST", "/v2/scrape", { key: serve.keys.alpha!, body: { url: `${site.url}/alpha` } });
  expect(r.status).toBe(200);
  browser = await launchChromium();
  context = await browser.newContext({ httpCredentials: { username: "anyone", password: serve.keys.alpha! } });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await serve?.stop();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await site.stop();
});

describe("serve's /ui under a path prefix (--public-url)", () => {
  it("redirects /ui to the prefixed /ui/", async () => {
    const res = await fetch(`${serve.server.url}/ui`, { headers: { authorization: `Bearer ${serve.keys.alpha!}` }, redirect: "manual" });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(`${PREFIX}/ui/`);
  });

  it("gives every link, form and asset the prefix, and the pages work through the proxy", async () => {
    const page = await context.newPage();
    const response = await page.goto(`${proxyUrl}${PREFIX}/ui`);
    expect(response!.status()).toBe(200);
    expect(page.url()).toBe(`${proxyUrl}${PREFIX}/ui/`);
    const targets: string[] = await page.evaluate(() =>
      [...document.querySelectorAll("a[href], link[href], script[src], form[action]")].map((e: any) => e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action")),
    );
    const local = targets.filter((t) => t.startsWith("/"));
    expect(local.length).toBeGreaterThan(5);
    for (const t of local) expect(t.startsWith(`${PREFIX}/ui/`), t).toBe(true);
    // The stylesheet came through the proxy: the page is styled.
    expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
    expect(reached).toContain(`${PREFIX}/ui/assets/ui.css`);

    await Promise.all([page.waitForURL(/\/ui\/runs\/\d+$/), page.click("table.runs tbody tr a >> nth=0")]);
    expect(page.url().startsWith(`${proxyUrl}${PREFIX}/ui/runs/`)).toBe(true);
    await Promise.all([page.waitForURL(/\/doc\?/), page.click(`a:text("${site.url}/alpha")`)]);
    expect(await page.locator("main").innerText()).toContain("Alpha's page");
    await Promise.all([page.waitForURL(/\/monitors$/), page.click('nav[aria-label="Main"] >> text=Monitors')]);
    expect(page.url()).toBe(`${proxyUrl}${PREFIX}/ui/monitors`);
    await page.goto(`${proxyUrl}${PREFIX}/ui/`);
    await Promise.all([page.waitForURL(/\?pipeline=/), page.click("form.filters button")]);
    expect(page.url().startsWith(`${proxyUrl}${PREFIX}/ui/?`)).toBe(true);
    // Nothing was asked of the proxy outside the prefix.
    expect(reached.filter((p) => !p.startsWith(PREFIX))).toEqual([]);
    await page.close();
  });
});
