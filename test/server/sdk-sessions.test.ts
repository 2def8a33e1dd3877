import Firecrawl from "@mendable/firecrawl-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

// The service's official JS SDK's browser, interact, parse and monitor calls, pointed at scrapeline serve (real Chromium).
let serve: Serve;
let client: Firecrawl;
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Start", `<ul id="items"><li>First</li></ul><button id="more" onclick="document.getElementById('items').insertAdjacentHTML('beforeend', '<li>Loaded more</li>')">More</button>`));
  site.page("/item", htmlPage("Item", "<p>price 10</p>"));
  await site.start();
  serve = await startServe({ sdk: { planTokens: 1_000_000 } }, { allowCodeExecution: true });
  client = new Firecrawl({ apiKey: serve.keys.sdk!, apiUrl: serve.server.url });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

describe("@mendable/firecrawl-js sessions against serve", () => {
  it("browser: create, execute, list, delete", async () => {
    const created = await client.browser({ ttl: 120 });
    expect(created).toMatchObject({ success: true, id: expect.any(String), expiresAt: expect.any(String) });
    const ran = await client.browserExecute(created.id!, { code: `await page.goto(${JSON.stringify(`${site.url}/`)}); await page.click("#more"); return await page.innerText("#items");`, language: "node" } as never);
    expect(ran).toMatchObject({ success: true, result: "First\nLoaded more", exitCode: 0 });
    const listed = await client.listBrowsers();
    expect(listed.sessions?.map((s) => s.id)).toEqual([created.id]);
    expect(await client.deleteBrowser(created.id!)).toMatchObject({ success: true });
    expect((await client.listBrowsers()).sessions).toEqual([]);
  });

  it("interact carries on from a scrape, and stops", async () => {
    const doc = await client.scrape(`${site.url}/`, { formats: ["markdown"] });
    const scrapeId = doc.metadata?.scrapeId as string;
    const ran = await client.interact(scrapeId, { code: `await page.click("#more"); return await page.innerText("#items");` });
    expect(ran).toMatchObject({ success: true, result: "First\nLoaded more" });
    expect(await client.stopInteraction(scrapeId)).toMatchObject({ success: true });
  });

  it("parse uploads a file and answers its Document", async () => {
    const doc = await client.parse({ data: Buffer.from("<html><head><title>Notes</title></head><body><h1>Notes</h1><p>Uploaded text.</p></body></html>"), filename: "notes.html", contentType: "text/html" }, { formats: ["markdown"] });
    expect(doc.markdown).toContain("Uploaded text.");
  });

  it("monitors: create, get, update, list, run, delete", async () => {
    const made = await client.createMonitor({ name: "prices", schedule: { cron: "0 * * * *", timezone: "UTC" }, targets: [{ type: "scrape", urls: [`${site.url}/item`] }] } as never);
    expect(made).toMatchObject({ id: expect.any(String), name: "prices" });
    expect(await client.getMonitor(made.id)).toMatchObject({ id: made.id });
    expect(await client.updateMonitor(made.id, { name: "prices, hourly" } as never)).toMatchObject({ name: "prices, hourly" });
    expect((await client.listMonitors()).map((m) => m.id)).toEqual([made.id]);
    const check = await client.runMonitor(made.id);
    expect(check).toMatchObject({ id: expect.any(String), trigger: "manual" });
    expect(await client.deleteMonitor(made.id)).toBe(true);
    expect(await client.listMonitors()).toEqual([]);
  });
});
