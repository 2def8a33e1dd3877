import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openExistingStore } from "../../src/app/common/store.js";
import { SqliteMonitorTables } from "../../src/store/index.js";
import { openUi, screenshots, startUiCli } from "./browser.js";
import { UiFixture } from "./fixture.js";

/**
 * The monitors pages of `scrapeline ui` in Chromium: a pipeline file's monitor and serve's, their
 * schedules in words and cron, the last check's counts, and a monitor's checks (linked to their
 * runs) and notifications, a failed one with its error.
 */
const fixture = new UiFixture();
let ui: Awaited<ReturnType<typeof startUiCli>>;
let browser: Browser;
let opened: Awaited<ReturnType<typeof openUi>> | undefined;
let runId: number;
const ids = { file: 0, api: 0, check: 0 };

beforeAll(async () => {
  await fixture.start(["/news"]);
  fixture.pages.set("/news", { body: "<p>Today's news</p>" });
  runId = await fixture.run("news", `version: 1\nname: news\nsteps:\n  - id: page\n    scrape: { url: "{site}/news" }\n`);
  const store = openExistingStore(fixture.db);
  try {
    const tables = new SqliteMonitorTables(store.db);
    const file = tables.upsert({ key: "file:news", source: "file", name: "news", file: "/pipelines/news.yaml", schedule: { cron: "0 6 * * 1-5", timezone: "Europe/Paris", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 } });
    const api = tables.upsert({ key: "api:1:prices", source: "api", teamId: 1, name: "prices", schedule: { everySeconds: 900, timezone: "UTC", jitterSeconds: 0, missed: "skip", minIntervalSeconds: 60 }, definition: {} });
    tables.setNextDue(file.id, "2030-01-07T05:00:00.000Z");
    const check = tables.claim(file.id, "2026-11-24T05:00:00.000Z", { trigger: "schedule", status: "running" })!;
    tables.setCheckRun(check.id, runId);
    tables.finishCheck(check.id, "completed", { summary: { totalPages: 5, same: 1, changed: 2, new: 1, removed: 0, error: 1, blocked: 1 } });
    tables.addNotifications(check.id, [
      { channel: "webhook", target: "https://hooks.example/a", event: "monitor.page", sent: true, status: 200, attempts: 1 },
      { channel: "slack", target: "https://hooks.slack.example", event: "monitor.page", sent: false, status: 500, attempts: 3, error: "HTTP 500 from https://hooks.slack.example" },
    ]);
    Object.assign(ids, { file: file.id, api: api.id, check: check.id });
  } finally {
    store.close();
  }
  opened = await openUi(fixture);
  ({ ui, browser } = opened);
}, 120_000);

afterAll(async () => {
  await (opened ? opened.close() : fixture.stop());
});

async function open(path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const response = await page.goto(`${ui.url}${path}`);
  expect(response!.status()).toBe(200);
  return page;
}

describe("the monitors pages", () => {
  it("are linked from the navigation and list every monitor with its schedule and last check", async () => {
    const page = await open("/");
    await Promise.all([page.waitForURL(/\/monitors$/), page.click('nav[aria-label="Main"] >> text=Monitors')]);
    expect(await page.getAttribute('nav[aria-label="Main"] a[aria-current="page"]', "href")).toBe("/monitors");
    const news = page.locator(`tr[data-monitor="${ids.file}"]`);
    expect(await news.locator('td[data-col="schedule"]').innerText()).toBe("on weekdays at 06:00");
    expect(await news.locator('td[data-col="cron"]').innerText()).toBe("0 6 * * 1-5");
    const cells = await news.locator("td").allInnerTexts();
    expect(cells[0]).toBe("news");
    expect(cells[4]).toBe("Europe/Paris");
    expect(await news.locator("td").nth(5).locator("time").getAttribute("datetime")).toBe("2030-01-07T05:00:00.000Z");
    expect(cells[6]).toContain("completed");
    expect(cells[7]).toBe("2 changed · 1 new · 0 removed · 1 failed (1 blocked) · 5 pages");
    expect(await news.locator('td[data-col="failed"]').innerText()).toBe("1");
    const prices = page.locator(`tr[data-monitor="${ids.api}"]`);
    expect(await prices.locator('td[data-col="schedule"]').innerText()).toBe("every 15 minutes");
    expect(await prices.locator('td[data-col="cron"]').innerText()).toBe("-");
    expect(await prices.locator('td[data-col="last"]').innerText()).toBe("never");
    await screenshots(page, "monitors");
    await page.context().close();
  });

  it("shows a monitor's checks linked to their runs, and its notifications with errors", async () => {
    const page = await open("/monitors");
    await Promise.all([page.waitForURL(new RegExp(`/monitors/${ids.file}$`)), page.click(`tr[data-monitor="${ids.file}"] a`)]);
    expect(await page.locator("h1").innerText()).toBe("news");
    const check = page.locator(`tr[data-check="${ids.check}"] td`);
    const cells = await check.allInnerTexts();
    expect(cells[1]).toBe("completed");
    expect(cells[2]).toBe("schedule");
    expect(await check.nth(3).locator("time").getAttribute("datetime")).toBe("2026-11-24T05:00:00.000Z");
    expect(cells[5]).toContain("2 changed");
    const rows = await page.locator("table.notifications tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td as { textContent: string }).textContent)));
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(1, 7)).toEqual(["slack", "https://hooks.slack.example", "monitor.page", "failed HTTP 500", "3", "HTTP 500 from https://hooks.slack.example"]);
    expect(rows[0]![4]).toBe("sent HTTP 200");
    await screenshots(page, "monitor");
    await Promise.all([page.waitForURL(new RegExp(`/runs/${runId}$`)), page.click(`tr[data-check="${ids.check}"] a`)]);
    expect(await page.locator("h1").innerText()).toContain(`#${runId}`);
    await page.context().close();
  });

  it("answers 404 for a monitor that does not exist", async () => {
    const res = await fetch(`${ui.url}/monitors/999`);
    expect(res.status).toBe(404);
  });
});
