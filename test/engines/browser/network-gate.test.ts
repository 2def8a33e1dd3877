import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../../src/engines/local/index.js";
import { FixtureSite, htmlPage } from "../../helpers/site.js";
import { failure } from "../fetch/servers.js";
import { scrapeOptions } from "./fixtures.js";

const site = new FixtureSite();
const seen: Record<string, string | string[] | undefined>[] = [];
/** Names the tests resolve: the fixture site under public-looking names, and one private name. */
const NAMES: Record<string, string> = { "shop.test": "127.0.0.1", "doubleclick.net": "127.0.0.1", "intranet.test": "10.0.0.7" };
// 127.0.0.0/8 plays the public internet; 169.254.169.254 and 10/8 stay private.
const engine = new LocalEngine({
  allowPrivateNetwork: false,
  treatAsPublic: ["127.0.0.0/8"],
  resolve: async (name) => (NAMES[name] ? [NAMES[name]] : []),
});
let port = 0;

beforeAll(async () => {
  site
    .page(
      "/metadata-probe",
      htmlPage(
        "Probe",
        `<p id="out">waiting</p><script>
          fetch("http://169.254.169.254/latest/meta-data/").then((r) => "status " + r.status, (e) => "failed").then((t) => { document.getElementById("out").textContent = "probe done: " + t; document.body.dataset.probe = "done"; });
          try { new WebSocket("ws://intranet.test/socket"); } catch (e) {}
        </script><img src="http://[::ffff:a9fe:a9fe]/pixel.png" alt="pixel">`,
      ),
    )
    .route("/to-metadata", (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end())
    .route("/headers", (req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Headers", "<p>ok</p>"));
    })
    .route("/ad.js", (_req, res) => res.writeHead(200, { "content-type": "text/javascript" }).end("window.adLoaded = true;"))
    .route("/with-ads", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Ads", `<p>content</p><script src="http://doubleclick.net:${port}/ad.js"></script>`)));
  await site.start();
  port = Number(new URL(site.url).port);
});

afterAll(async () => {
  await engine.close();
  await site.stop();
});

describe("the browser's requests pass the private-network gate", () => {
  it("refuses a script's fetch, WebSocket and image to private addresses, records them, and completes the page", async () => {
    const doc = await engine.scrape(
      `http://shop.test:${port}/metadata-probe`,
      scrapeOptions({ formats: ["markdown"], actions: [{ type: "wait", selector: "body[data-probe]" }, { type: "wait", milliseconds: 300 }] }),
    );
    expect(doc.metadata.statusCode).toBe(200);
    expect(doc.markdown).toContain("probe done");
    expect(doc.warning).toContain("169.254.169.254");
    expect(doc.warning).toContain("intranet.test");
    expect(doc.warning).toMatch(/refused 3 requests/);
  });

  it("refuses a navigation that redirects to the metadata address", async () => {
    const error = await failure(engine.scrape(`http://shop.test:${port}/to-metadata`, scrapeOptions({ waitFor: 1 })), "blocked");
    expect(error.message).toContain("169.254.169.254");
  });

  it("refuses a page on a name with a private address", async () => {
    const error = await failure(engine.scrape(`http://intranet.test:${port}/headers`, scrapeOptions({ waitFor: 1 })), "blocked");
    expect(error.message).toContain("10.0.0.7");
  });

  it("sends the user's headers and the location's language, and blocks ad hosts under blockAds", async () => {
    const doc = await engine.scrape(
      `http://shop.test:${port}/headers`,
      scrapeOptions({ waitFor: 1, headers: { "X-Team": "pricing" }, location: { country: "DE" }, actions: [{ type: "executeJavascript", script: "navigator.language" }] }),
    );
    expect(seen.at(-1)?.["x-team"]).toBe("pricing");
    expect(seen.at(-1)?.["accept-language"]).toMatch(/^de-DE/);
    expect(doc.actions?.javascriptReturns?.[0]?.value).toBe("de-DE");

    await engine.scrape(`http://shop.test:${port}/with-ads`, scrapeOptions({ waitFor: 1 }));
    expect(site.hits.get("/ad.js") ?? 0).toBe(0);
    await engine.scrape(`http://shop.test:${port}/with-ads`, scrapeOptions({ waitFor: 1, blockAds: false }));
    expect(site.hits.get("/ad.js")).toBe(1);
  });
});
