import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { htmlPage } from "../helpers/site.js";
import { openUi, startUiCli } from "./browser.js";
import { UiFixture } from "./fixture.js";

/**
 * Retries per step: a loopback page that fails once (503) and then answers 200 is retried once;
 * the count is stored on the step's row and shown by `show` and on the run's page.
 */
const fixture = new UiFixture();
let ui: Awaited<ReturnType<typeof startUiCli>>;
let browser: Browser;
let opened: Awaited<ReturnType<typeof openUi>> | undefined;
let runId: number;
let flakyHits = 0;

beforeAll(async () => {
  fixture.site.route("/flaky", (_req, res) => {
    flakyHits += 1;
    if (flakyHits === 1) return void res.writeHead(503, { "content-type": "text/html" }).end(htmlPage("Busy", "<p>try again</p>"));
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(htmlPage("Flaky", "<p>Here now</p>"));
  });
  await fixture.start(["/steady"]);
  fixture.pages.set("/steady", { body: "<p>Always here</p>" });
  runId = await fixture.run(
    "flaky",
    `version: 1\nname: flaky\nretry: { attempts: 3, initialDelayMs: 10, maxDelayMs: 20 }\nsteps:\n  - id: flaky\n    scrape: { url: "{site}/flaky" }\n  - id: steady\n    scrape: { url: "{site}/steady" }\n`,
  );
  opened = await openUi(fixture);
  ({ ui, browser } = opened);
}, 120_000);

afterAll(async () => {
  await (opened ? opened.close() : fixture.stop());
});

describe("retries per step", () => {
  it("are counted on the step's row as the runner retries", () => {
    expect(flakyHits).toBe(2);
    const store = new SqliteStore(fixture.db);
    try {
      const steps = Object.fromEntries(store.getSteps(runId).map((s) => [s.stepId, s]));
      expect(steps.flaky!.status).toBe("succeeded");
      expect(steps.flaky!.retries).toBe(1);
      expect(steps.steady!.retries).toBe(0);
    } finally {
      store.close();
    }
  });

  it("are shown by show", () => {
    const out = execFileSync(process.execPath, ["dist/cli/main.js", "show", String(runId), "--db", fixture.db], { encoding: "utf8" });
    const header = out.split("\n").find((l) => l.startsWith("step "))!.trim().split(/\s+/);
    expect(header).toEqual(["step", "kind", "status", "documents", "failures", "retries", "credits"]);
    const row = (id: string) => out.split("\n").find((l) => l.startsWith(`${id} `))!.trim().split(/\s+/);
    expect(row("flaky")[header.indexOf("retries")]).toBe("1");
    expect(row("steady")[header.indexOf("retries")]).toBe("0");
    const json = JSON.parse(execFileSync(process.execPath, ["dist/cli/main.js", "show", String(runId), "--db", fixture.db, "--json"], { encoding: "utf8" })) as { steps: Array<{ stepId: string; retries: number }> };
    expect(json.steps.map((s) => [s.stepId, s.retries])).toEqual([["flaky", 1], ["steady", 0]]);
  });

  it("are shown on the run's page", async () => {
    const page = await (await browser.newContext()).newPage();
    const response = await page.goto(`${ui.url}/runs/${runId}`);
    expect(response!.status()).toBe(200);
    expect(await page.locator('tr[data-step="flaky"] td[data-col="retries"]').innerText()).toBe("1");
    expect(await page.locator('tr[data-step="steady"] td[data-col="retries"]').innerText()).toBe("0");
    await page.context().close();
  });
});
