import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../../src/engines/local/index.js";
import { FixtureSite, htmlPage } from "../../helpers/site.js";
import { failure } from "../fetch/servers.js";
import { pdfMediaBox, pngSize, scrapeOptions } from "./fixtures.js";

const SEARCH = htmlPage(
  "Search",
  `<form id="f"><input id="q" name="q"><button type="submit">Go</button></form><ul id="results"></ul>
  <script>
    document.getElementById("f").addEventListener("submit", async (event) => {
      event.preventDefault();
      const q = document.getElementById("q").value;
      const answer = await fetch("/api/search?q=" + encodeURIComponent(q)).then((r) => r.json());
      document.getElementById("results").innerHTML = answer.map((t) => '<li class="hit">' + t + "</li>").join("");
    });
  </script>`,
);

const LATE = htmlPage("Late", `<div id="slot">loading</div><script>setTimeout(() => { document.getElementById("slot").innerHTML = "<p>Rendered later by script</p>"; }, 500);</script>`);

const SCROLL = htmlPage(
  "Feed",
  `<div id="feed"></div><script>
    let n = 0;
    const feed = document.getElementById("feed");
    function more() { for (let i = 0; i < 10; i++) { n++; const p = document.createElement("p"); p.className = "item"; p.style.height = "120px"; p.textContent = "Item " + n; feed.appendChild(p); } }
    more();
    window.addEventListener("scroll", () => { if (window.innerHeight + window.scrollY >= document.body.scrollHeight - window.innerHeight && n < 30) more(); });
  </script>`,
);

const MOBILE = htmlPage(
  "Layout",
  `<meta name="viewport" content="width=device-width, initial-scale=1"><div id="out"></div><script>
    const phone = /Mobile/.test(navigator.userAgent) && window.innerWidth < 600 && navigator.maxTouchPoints > 0;
    document.getElementById("out").innerHTML = phone ? "<p>Phone layout</p>" : "<p>Desktop layout</p>";
  </script>`,
);

const site = new FixtureSite();
const engine = new LocalEngine({ allowPrivateNetwork: true });

beforeAll(async () => {
  site
    .page("/search", SEARCH)
    .route("/api/search", (req, res) => {
      const q = new URL(req.url ?? "/", "http://x").searchParams.get("q") ?? "";
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([`${q} one`, `${q} two`]));
    })
    .page("/late", LATE)
    .page("/feed", SCROLL)
    .page("/mobile", MOBILE)
    .page("/plain", htmlPage("Plain", "<p>Some text</p>"))
    .route("/loop-a", (_req, res) => void res.writeHead(302, { location: "/loop-b" }).end())
    .route("/loop-b", (_req, res) => void res.writeHead(302, { location: "/loop-a" }).end());
  await site.start();
});

afterAll(async () => {
  await engine.close();
  await site.stop();
});

describe("the local engine in a browser", () => {
  it("fills a search form, presses Enter, waits for results and scrapes them", async () => {
    const doc = await engine.scrape(
      `${site.url}/search`,
      scrapeOptions({
        formats: ["markdown", "rawHtml"],
        actions: [
          { type: "click", selector: "#q" },
          { type: "write", text: "widgets" },
          { type: "press", key: "Enter" },
          { type: "wait", selector: "li.hit" },
          { type: "scrape" },
        ],
      }),
    );
    expect(doc.markdown).toContain("widgets one");
    expect(doc.markdown).toContain("widgets two");
    expect(doc.metadata.title).toBe("Search");
    expect(doc.metadata.statusCode).toBe(200);
    expect(doc.actions?.scrapes).toHaveLength(1);
    expect(doc.actions?.scrapes?.[0]?.url).toBe(`${site.url}/search`);
    expect(doc.actions?.scrapes?.[0]?.html).toContain('<li class="hit">widgets one</li>');
    expect(doc.rawHtml).toContain("widgets two");
  });

  it("waits waitFor before taking content rendered by script", async () => {
    const plain = await engine.scrape(`${site.url}/late`, scrapeOptions({ formats: ["markdown"] }));
    expect(plain.markdown).not.toContain("Rendered later");
    const waited = await engine.scrape(`${site.url}/late`, scrapeOptions({ formats: ["markdown"], waitFor: 1500 }));
    expect(waited.markdown).toContain("Rendered later by script");
  });

  it("loads more items of an infinite list by scrolling", async () => {
    const doc = await engine.scrape(
      `${site.url}/feed`,
      scrapeOptions({ formats: ["markdown"], timeout: 10_000, actions: [{ type: "scroll", direction: "down" }, { type: "wait", selector: "p.item:nth-of-type(20)" }, { type: "scroll" }, { type: "wait", selector: "p.item:nth-of-type(30)" }] }),
    );
    expect(doc.markdown).toContain("Item 30");
  });

  it("emulates a phone under mobile: true", async () => {
    const desktop = await engine.scrape(`${site.url}/mobile`, scrapeOptions({ formats: ["markdown"], waitFor: 1 }));
    expect(desktop.markdown).toContain("Desktop layout");
    const phone = await engine.scrape(`${site.url}/mobile`, scrapeOptions({ formats: ["markdown"], mobile: true }));
    expect(phone.markdown).toContain("Phone layout");
  });

  it("returns the values of executeJavascript with their types", async () => {
    const doc = await engine.scrape(
      `${site.url}/plain`,
      scrapeOptions({
        formats: ["markdown"],
        actions: [
          { type: "executeJavascript", script: "document.title" },
          { type: "executeJavascript", script: "return [1, 2, 3].map((n) => n * 2)" },
          { type: "executeJavascript", script: "document.querySelector('main h1').textContent = 'Changed'; 42" },
        ],
      }),
    );
    expect(doc.actions?.javascriptReturns).toEqual([
      { type: "string", value: "Plain" },
      { type: "array", value: [2, 4, 6] },
      { type: "number", value: 42 },
    ]);
    expect(doc.markdown).toContain("Changed");
  });

  it("takes a screenshot the size of the requested viewport, and a PDF of the requested paper", async () => {
    const doc = await engine.scrape(
      `${site.url}/plain`,
      scrapeOptions({
        formats: ["markdown", { type: "screenshot", viewport: { width: 800, height: 600 } }],
        actions: [{ type: "screenshot" }, { type: "pdf", format: "A4" }, { type: "pdf", format: "Letter", landscape: true }],
      }),
    );
    expect(pngSize(doc.screenshot ?? "")).toEqual({ width: 800, height: 600 });
    expect(pngSize(doc.actions?.screenshots?.[0] ?? "")).toEqual({ width: 800, height: 600 });
    const [a4, letter] = (doc.actions?.pdfs ?? []).map(pdfMediaBox);
    // A4 is 210 × 297 mm, Letter 8.5 × 11 in; 72 points to the inch.
    expect(Math.abs((a4?.width ?? 0) - 595.3)).toBeLessThan(2);
    expect(Math.abs((a4?.height ?? 0) - 841.9)).toBeLessThan(2);
    expect(letter).toEqual({ width: 792, height: 612 });
  });

  it("fails the page with an error naming the action that failed", async () => {
    const error = await failure(
      engine.scrape(`${site.url}/plain`, scrapeOptions({ formats: ["markdown"], actions: [{ type: "wait", milliseconds: 1 }, { type: "scroll" }, { type: "click", selector: "#missing" }, { type: "scrape" }] })),
      "bad-content",
    );
    expect(error.message).toContain('action 3 of 4 (click "#missing") failed');
    expect(error.message).toContain("no element matched");
  });

  it("fails a redirect loop as an answer of the site, which is not retried", async () => {
    const error = await failure(engine.scrape(`${site.url}/loop-a`, scrapeOptions({ formats: ["markdown"], waitFor: 10 })), "http-status");
    expect(error.message).toContain(`too many redirects loading ${site.url}/loop-a in the browser`);
  });
});
