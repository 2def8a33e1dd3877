import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

let serve: Serve;
let off: Serve;
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Start", `<ul id="items"><li>First</li></ul><button id="more" onclick="document.getElementById('items').insertAdjacentHTML('beforeend', '<li>Loaded more</li>')">More</button><a id="next" href="/next">Next</a>`));
  site.page("/next", htmlPage("Next page", "<p>The second page</p>"));
  await site.start();
  serve = await startServe({ alpha: {}, beta: {} }, { allowCodeExecution: true, maxBrowserSessions: 2 });
  off = await startServe({ gamma: {} });
});

afterAll(async () => {
  await Promise.all([serve.stop(), off.stop(), site.stop()]);
});

describe("/v2/browser", () => {
  it("opens a session, runs code on its page with console output and a result, and closes it", async () => {
    const created = await serve.call("POST", "/v2/browser", { body: { ttl: 120 } });
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(100_000);
    const code = `await page.goto(${JSON.stringify(`${site.url}/`)});
      await page.click("#more");
      console.log("title:", await page.title());
      console.error("a note");
      return { items: await page.innerText("#items"), url: await page.url(), sum: await page.evaluate((n) => n + 1, 41) };`;
    const ran = await serve.call("POST", `/v2/browser/${created.body.id}/execute`, { body: { code, language: "node", timeout: 30 } });
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ success: true, exitCode: 0, killed: false, stdout: "title: Start\n", stderr: "a note\n" });
    expect(ran.body.result).toEqual({ items: "First\nLoaded more", url: `${site.url}/`, sum: 42 });
    // The page stays where the code left it.
    const again = await serve.call("POST", `/v2/browser/${created.body.id}/execute`, { body: { code: "return await page.innerText('#items')" } });
    expect(again.body.result).toBe("First\nLoaded more");
    expect((await serve.call("DELETE", `/v2/browser/${created.body.id}`)).status).toBe(200);
    expect((await serve.call("POST", `/v2/browser/${created.body.id}/execute`, { body: { code: "return 1" } })).status).toBe(404);
  });

  it("refuses another team's session as not found, and a team's sessions beyond its limit with 429", async () => {
    const one = await serve.call("POST", "/v2/browser", { body: {} });
    const other = { key: serve.keys.beta! };
    expect((await serve.call("POST", `/v2/browser/${one.body.id}/execute`, { ...other, body: { code: "return 1" } })).status).toBe(404);
    expect((await serve.call("DELETE", `/v2/browser/${one.body.id}`, other)).status).toBe(404);
    const two = await serve.call("POST", "/v2/browser", { body: {} });
    const three = await serve.call("POST", "/v2/browser", { body: {} });
    expect(three.status).toBe(429);
    expect(three.body.error).toMatch(/already has 2 live browser sessions/);
    // The other team has its own allowance.
    const theirs = await serve.call("POST", "/v2/browser", { ...other, body: {} });
    expect(theirs.status).toBe(200);
    for (const [id, key] of [[one.body.id, undefined], [two.body.id, undefined], [theirs.body.id, serve.keys.beta]] as const) await serve.call("DELETE", `/v2/browser/${id}`, key ? { key } : {});
  });

  it("checks its input: ttl and activityTtl ranges, language node only, prompt answered 501", async () => {
    expect((await serve.call("POST", "/v2/browser", { body: { ttl: 10 } })).body.error).toMatch(/ttl must be a whole number of seconds from 30 to 3600/);
    expect((await serve.call("POST", "/v2/browser", { body: { activityTtl: 4000 } })).status).toBe(400);
    const created = await serve.call("POST", "/v2/browser", { body: {} });
    const path = `/v2/browser/${created.body.id}/execute`;
    expect((await serve.call("POST", path, { body: { code: "print(1)", language: "python" } })).body.error).toMatch(/only node/);
    expect((await serve.call("POST", path, { body: { code: "return 1", timeout: 301 } })).status).toBe(400);
    const prompt = await serve.call("POST", path, { body: { prompt: "click the first link" } });
    expect(prompt.status).toBe(501);
    expect(prompt.body.error).toMatch(/^prompt \(a model driving the page\) is not available/);
    await serve.call("DELETE", `/v2/browser/${created.body.id}`);
  });

  it("runs no code unless serve was started with --allow-code-execution", async () => {
    const created = await off.call("POST", "/v2/browser", { body: {} });
    const ran = await off.call("POST", `/v2/browser/${created.body.id}/execute`, { body: { code: "return 1" } });
    expect(ran.status).toBe(403);
    expect(ran.body.error).toMatch(/--allow-code-execution/);
    await off.call("DELETE", `/v2/browser/${created.body.id}`);
  });
});

describe("/v2/scrape/{id}/interact", () => {
  it("replays the scrape's URL and actions into a live page, runs code on it, and closes it on DELETE", async () => {
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/`, actions: [{ type: "click", selector: "#more" }] } });
    expect(scraped.status).toBe(200);
    const scrapeId = scraped.body.data.metadata.scrapeId as string;
    expect(scrapeId).toMatch(/^[0-9a-f-]{36}$/);
    const first = await serve.call("POST", `/v2/scrape/${scrapeId}/interact`, { body: { code: "return await page.innerText('#items')" } });
    expect(first.status).toBe(200);
    expect(first.body.result).toBe("First\nLoaded more");
    const second = await serve.call("POST", `/v2/scrape/${scrapeId}/interact`, { body: { code: "await page.click('#next'); await page.waitForSelector('p'); return await page.title()" } });
    expect(second.body.result).toBe("Next page");
    expect((await serve.call("POST", `/v2/scrape/${scrapeId}/interact`, { key: serve.keys.beta!, body: { code: "return 1" } })).status).toBe(404);
    expect((await serve.call("DELETE", `/v2/scrape/${scrapeId}/interact`)).status).toBe(200);
    expect((await serve.call("DELETE", `/v2/scrape/${scrapeId}/interact`)).status).toBe(404);
  });
});
