import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

/** What a local file would show: the first line of /etc/passwd, or the name of the database in its folder's listing. */
const LOCAL = /root:x:0:0|serve\.db|Index of|Chromium Authors|Command Line/;
/** The refusal /v2/scrape gives a file: URL. */
const REFUSED = /^error: [a-z-]+: URLs cannot be fetched: .* \(only http and https URLs are fetched\)$/;

let serve: Serve;
let id = "";
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Start", "<p>A page</p>"));
  site.page("/next", htmlPage("Next page", "<p>The second page</p>"));
  site.route("/to-file", (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end());
  site.page("/frames", htmlPage("Frames", `<iframe id="f" src="file:///etc/passwd"></iframe><iframe id="v" src="view-source:file:///etc/passwd"></iframe><iframe id="c" src="chrome://version"></iframe><object id="o" data="file:///etc/passwd"></object><p id="after">after the frames</p>`));
  site.route("/attachment", (_req, res) => res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="a.bin"' }).end("bytes"));
  await site.start();
  serve = await startServe({ alpha: {} }, { allowCodeExecution: true });
  id = (await serve.call("POST", "/v2/browser", { body: {} })).body.id;
});

afterAll(async () => {
  await Promise.all([serve.stop(), site.stop()]);
});

const execute = (code: string, timeout = 60) => serve.call("POST", `/v2/browser/${id}/execute`, { body: { code, timeout } });

/** Code that tries `goto` on each URL and answers, per URL, the page's text or the error. */
function tryEach(urls: string[]): string {
  return `const out = {};
    for (const url of ${JSON.stringify(urls)}) {
      try { await page.goto(url); out[url] = "loaded: " + (await page.content()); } catch (e) { out[url] = "error: " + e.message; }
    }
    return out;`;
}

describe("a browser session's page loads only http(s)", () => {
  it("refuses goto to local files, a folder listing, view-source:, chrome:, devtools:, chrome-extension: and filesystem: URLs", async () => {
    const urls = [
      "file:///etc/passwd",
      " FILE:/etc/passwd",
      `file://${serve.dir}/`,
      "view-source:file:///etc/passwd",
      `view-source:${site.url}/`,
      "chrome://version",
      "devtools://devtools/bundled/inspector.html",
      "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/x.html",
      `filesystem:${site.url}/temporary/x`,
    ];
    const ran = await execute(tryEach(urls));
    expect(ran.status).toBe(200);
    const out = ran.body.result as Record<string, string>;
    for (const url of urls) {
      expect(out[url], url).toMatch(/^error: /);
      expect(out[url], url).toMatch(REFUSED);
      expect(out[url], url).not.toMatch(LOCAL);
    }
    expect(out["file:///etc/passwd"]).toBe("error: file: URLs cannot be fetched: file:///etc/passwd (only http and https URLs are fetched)");
    // The page is still of use.
    expect((await execute(`await page.goto(${JSON.stringify(`${site.url}/next`)}); return await page.title()`)).body.result).toBe("Next page");
  });

  it("refuses a blob: URL of another origin, and keeps the page's own", async () => {
    const other = site.url.replace("127.0.0.1", "localhost");
    // The blob lives in a window of the first origin that stays open while the page goes to the other.
    const code = `await page.goto(${JSON.stringify(`${site.url}/`)});
      const made = "URL.createObjectURL(new Blob(['<p>own blob</p>'], { type: 'text/html' }))";
      const kept = await page.evaluate("const w = window.open('about:blank'); w.eval(" + JSON.stringify(made) + ")");
      const own = await page.evaluate(made);
      await page.goto(own);
      const ownText = await page.content();
      await page.goto(${JSON.stringify(`${other}/next`)});
      try { await page.goto(kept); return { ownText, other: "loaded: " + (await page.content()) }; } catch (e) { return { ownText, other: "error: " + e.message }; }`;
    const ran = await execute(code);
    expect(ran.body.result.ownText).toContain("<p>own blob</p>");
    expect(ran.body.result.other).toMatch(REFUSED);
    expect(ran.body.result.other).not.toContain("own blob");
  });

  it("a page's own script reaches no local URL: location=, window.open, iframes, <object>, a redirect, a download", async () => {
    const code = `const seen = [];
      await page.goto(${JSON.stringify(`${site.url}/`)});
      await page.evaluate("location.href = 'file:///etc/passwd'");
      await page.evaluate("window.open('file:///etc/passwd'); window.open('chrome://version')");
      // A navigation the page starts after those: when it lands, the refused ones are long over.
      await page.evaluate("setTimeout(() => { location.href = '/next' }, 0)");
      await page.waitForSelector("text=The second page");
      seen.push(await page.content());
      await page.goto(${JSON.stringify(`${site.url}/frames`)});
      seen.push(await page.content());
      for (const frame of ["#f", "#v", "#c"]) {
        try { seen.push(await page.innerText(frame + " >> internal:control=enter-frame >> body", { timeout: 2000 })); } catch (e) { seen.push(e.message); }
      }
      let redirect = "";
      try { await page.goto(${JSON.stringify(`${site.url}/to-file`)}); redirect = "loaded: " + (await page.content()); } catch (e) { redirect = "error: " + e.message; }
      let download = "";
      try { await page.goto(${JSON.stringify(`${site.url}/attachment`)}); download = "loaded: " + (await page.content()); } catch (e) { download = "error: " + e.message; }
      return { seen, redirect, download, url: await page.url() };`;
    const ran = await execute(code);
    expect(ran.body.exitCode).toBe(0);
    const { seen, redirect, download } = ran.body.result as { seen: string[]; redirect: string; download: string };
    expect(seen[0]).toContain("The second page");
    expect(seen[1]).toContain("after the frames");
    for (const text of seen) expect(text).not.toMatch(LOCAL);
    expect(redirect).toMatch(/^error: /);
    expect(redirect).not.toMatch(LOCAL);
    expect(download).toMatch(/^error: /);
  });

  it("refuses the same on a scrape's interact page", async () => {
    const scraped = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/`, actions: [{ type: "wait", milliseconds: 1 }] } });
    const scrapeId = scraped.body.data.metadata.scrapeId as string;
    const ran = await serve.call("POST", `/v2/scrape/${scrapeId}/interact`, { body: { code: tryEach(["file:///etc/passwd", "chrome://version"]) } });
    const out = ran.body.result as Record<string, string>;
    expect(out["file:///etc/passwd"]).toBe("error: file: URLs cannot be fetched: file:///etc/passwd (only http and https URLs are fetched)");
    expect(out["chrome://version"]).toBe("error: chrome: URLs cannot be fetched: chrome://version (only http and https URLs are fetched)");
    await serve.call("DELETE", `/v2/scrape/${scrapeId}/interact`);
  });
});

describe("a code run's bounds", () => {
  it("ends code whose ArrayBuffers outgrow the memory limit (not only its heap), and the session goes on", async () => {
    const ran = await execute("const keep = []; for (let i = 0; i < 16; i++) keep.push(new Uint8Array(64 * 1024 * 1024).fill(1)); return keep.length * 64 + ' MB touched'");
    expect(ran.body.result).toBeNull();
    expect(ran.body.killed).toBe(false);
    expect(ran.body.exitCode).not.toBe(0);
    expect(ran.body.stderr).toMatch(/it ran out of its 128 MB of memory/);
    expect((await execute("return 6 * 7")).body.result).toBe(42);
  });

  it("stops the page's script at the timeout: the next run on the session reads the page and goes on", async () => {
    await execute(`await page.goto(${JSON.stringify(`${site.url}/`)})`);
    const hung = await execute("await page.evaluate(() => { while (true) {} })", 2);
    expect(hung.body.killed).toBe(true);
    const next = await execute(`const title = await page.title(); const went = await page.goto(${JSON.stringify(`${site.url}/next`)}); return [title, went.status, await page.title()]`);
    expect(next.body).toMatchObject({ exitCode: 0, killed: false });
    expect(next.body.result).toEqual(["Start", 200, "Next page"]);
  }, 120_000);

  it("a page that hangs again after each stop is replaced by a fresh page of the session", async () => {
    const hung = await execute(`await page.goto(${JSON.stringify(`${site.url}/`)}); await page.evaluate(() => { setInterval(() => { for (;;) {} }, 0) }); return await page.title()`, 2);
    expect(hung.body.killed).toBe(true);
    const next = await execute(`const title = await page.title(); const went = await page.goto(${JSON.stringify(`${site.url}/next`)}); return [typeof title, went.status, await page.title()]`);
    expect(next.body).toMatchObject({ exitCode: 0, killed: false });
    expect(next.body.result).toEqual(["string", 200, "Next page"]);
  }, 120_000);
});

