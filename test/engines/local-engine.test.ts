import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScrapeOptions } from "../../src/core/index.js";
import { LocalEngine } from "../../src/engines/local/index.js";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { makePdf } from "./pdf/make-pdf.js";

/** Scrape options exactly as a pipeline would give them (defaults applied). */
function options(extra: Record<string, unknown> = {}): ScrapeOptions {
  const yaml = `version: 1\nname: t\nsteps:\n  - id: s\n    scrape: ${JSON.stringify({ url: "https://example.com/", ...extra })}\n`;
  const result = loadPipelineText("t.yaml", yaml);
  const step = result.pipeline?.steps[0];
  if (!step || step.kind !== "scrape") throw new Error(JSON.stringify(result.diagnostics));
  return step.body;
}

const site = new FixtureSite();
const engine = new LocalEngine({ allowPrivateNetwork: true });
const guarded = new LocalEngine({ allowPrivateNetwork: false });

beforeAll(async () => {
  site
    .page("/article", htmlPage("Article", '<p>Body text with a <a href="/next#frag">link</a>.</p><img src="/pic.png" alt="pic">'))
    .route("/json", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"a":1}'))
    .route("/text", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("plain words"))
    .route("/binary", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(Buffer.from([0, 1, 2, 3, 0, 255, 254, 0])))
    .route("/empty", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(""))
    .route("/malformed", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body><div><p>unclosed <b>bold <i>both</div></span></p><table><tr><td>cell"))
    .route("/latin1", (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=windows-1252" }).end(Buffer.from("<html><body><main><p>caf\xe9 \x93quoted\x94</p></main></body></html>", "latin1")))
    .route("/pdf", (_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end(makePdf([["First page text"], ["Second page text"]], { title: "Fixture PDF" })))
    .route("/gzip", (_req, res) => res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(gzipSync(htmlPage("Zipped", "<p>compressed body</p>"))))
    .route("/bomb", (_req, res) => res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(64 * 1024 * 1024))))
    .route("/loop", (_req, res) => res.writeHead(302, { location: "/loop" }).end())
    .route("/busy", (_req, res) => res.writeHead(503, { "retry-after": "5" }).end())
    .route("/limited", (_req, res) => res.writeHead(429, { "retry-after": "7" }).end());
  await site.start();
});

afterAll(async () => {
  await engine.close();
  await guarded.close();
  await site.stop();
});

describe("LocalEngine.scrape", () => {
  it("returns the service's Document with only the requested formats", async () => {
    const doc = await engine.scrape(`${site.url}/article`, options({ formats: ["markdown", "links", "rawHtml"], onlyMainContent: false }));
    expect(Object.keys(doc).sort()).toEqual(["links", "markdown", "metadata", "rawHtml"]);
    expect(doc.markdown).toContain("Body text with a [link]");
    expect(doc.links).toEqual([`${site.url}/`, `${site.url}/next`]);
    expect(doc.rawHtml).toContain("<nav>");
    expect(doc.metadata).toMatchObject({ title: "Article", description: "About Article", language: "en", sourceURL: `${site.url}/article`, url: `${site.url}/article`, statusCode: 200 });
    const only = await engine.scrape(`${site.url}/article`, options());
    expect(Object.keys(only).sort()).toEqual(["markdown", "metadata"]);
  });

  it("turns JSON into a fenced block and text into itself", async () => {
    expect((await engine.scrape(`${site.url}/json`, options())).markdown).toBe('```json\n{"a":1}\n```\n');
    expect((await engine.scrape(`${site.url}/text`, options())).markdown).toBe("plain words");
  });

  it("refuses binary served as text/html with a clear error", async () => {
    await expect(engine.scrape(`${site.url}/binary`, options())).rejects.toMatchObject({ kind: "bad-content" });
  });

  it("gives a document for an empty body and for malformed HTML", async () => {
    expect((await engine.scrape(`${site.url}/empty`, options())).metadata.statusCode).toBe(200);
    const doc = await engine.scrape(`${site.url}/malformed`, options({ onlyMainContent: false }));
    expect(doc.markdown).toContain("unclosed");
    expect(doc.markdown).toContain("cell");
  });

  it("decodes a windows-1252 page", async () => {
    expect((await engine.scrape(`${site.url}/latin1`, options())).markdown).toContain("café “quoted”");
  });

  it("converts a PDF to markdown with its page count, or returns it base64 when parsing is off", async () => {
    const parsed = await engine.scrape(`${site.url}/pdf`, options());
    expect(parsed.markdown).toContain("First page text");
    expect(parsed.markdown).toContain("Second page text");
    expect(parsed.metadata).toMatchObject({ numPages: 2, title: "Fixture PDF" });
    const raw = await engine.scrape(`${site.url}/pdf`, options({ parsers: [] }));
    expect(Buffer.from(raw.markdown!, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("decodes gzip and stops a gzip bomb", async () => {
    expect((await engine.scrape(`${site.url}/gzip`, options())).markdown).toContain("compressed body");
    await expect(engine.scrape(`${site.url}/bomb`, options())).rejects.toMatchObject({ kind: "too-large" });
  });

  it("stops a redirect loop with an error naming it", async () => {
    await expect(engine.scrape(`${site.url}/loop`, options())).rejects.toMatchObject({ kind: "http-status", message: expect.stringMatching(/redirect loop/i) });
  });

  it("reports retryable statuses as errors carrying Retry-After", async () => {
    await expect(engine.scrape(`${site.url}/busy`, options())).rejects.toMatchObject({ kind: "http-status", status: 503, retryAfterMs: 5000 });
    await expect(engine.scrape(`${site.url}/limited`, options())).rejects.toMatchObject({ kind: "rate-limited", status: 429, retryAfterMs: 7000 });
  });

  it("refuses loopback unless private networks are allowed", async () => {
    const before = site.hits.get("/article");
    await expect(guarded.scrape(`${site.url}/article`, options())).rejects.toMatchObject({ kind: "blocked" });
    expect(site.hits.get("/article")).toBe(before);
  });

  it("names what is missing for options that need an LLM, or a browser under browser: never", async () => {
    await expect(engine.scrape(`${site.url}/article`, options({ formats: ["summary"] }))).rejects.toMatchObject({ kind: "unsupported", message: expect.stringMatching(/needs an LLM/) });
    const noBrowser = new LocalEngine({ allowPrivateNetwork: true, browser: "never" });
    try {
      for (const extra of [{ formats: ["markdown", "screenshot"] }, { actions: [{ type: "click", selector: "a" }] }, { waitFor: 1000 }]) {
        await expect(noBrowser.scrape(`${site.url}/article`, options(extra))).rejects.toMatchObject({ kind: "unsupported", message: expect.stringMatching(/needs? a browser.*engine\.browser: never/) });
      }
      // mobile without a browser still answers, as a phone's User-Agent over HTTP.
      expect((await noBrowser.scrape(`${site.url}/article`, options({ mobile: true }))).metadata.statusCode).toBe(200);
    } finally {
      await noBrowser.close();
    }
    await expect(engine.scrape(`${site.url}/article`, options({ formats: [{ type: "json", prompt: "x" }] }))).rejects.toMatchObject({ kind: "invalid-input", message: expect.stringMatching(/prompt-only extraction needs an LLM/) });
  });

  it("enforces threat-protection lists before fetching", async () => {
    const before = site.hits.get("/article");
    await expect(engine.scrape(`${site.url}/article`, options({ threatProtection: { blacklist: ["127.0.0.1"] } }))).rejects.toMatchObject({ kind: "blocked" });
    await expect(engine.scrape("http://shop.example.zip/", options({ threatProtection: { blockedTlds: ["zip"] } }))).rejects.toMatchObject({ kind: "blocked" });
    expect(site.hits.get("/article")).toBe(before);
    const allowed = await engine.scrape(`${site.url}/article`, options({ threatProtection: { blacklist: ["127.0.0.1"], whitelist: ["127.0.0.1"] } }));
    expect(allowed.metadata.statusCode).toBe(200);
  });
});
