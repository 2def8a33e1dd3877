import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScrapeOptions } from "../../src/core/index.js";
import { contentKind } from "../../src/engines/local/content.js";
import { decodeText } from "../../src/engines/local/fetch/index.js";
import { LocalEngine } from "../../src/engines/local/index.js";
import { loadPipelineText } from "../../src/pipeline/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";

// UTF-16 pages hold NUL bytes in their markup; they are text, read in the byte order their
// BOM, Content-Type charset or layout gives, never refused as binary content.

const PAGE = htmlPage("Grüße", "<p>Ünïcödé text: 日本語 and Привет.</p>");
const META_PAGE = `<!doctype html><html><head><meta charset="utf-16"><title>Meta</title></head><body><main><h1>Meta</h1><p>Declared in a meta: café 日本語.</p></main></body></html>`;

const LE_BOM = Buffer.from([0xff, 0xfe]);
const BE_BOM = Buffer.from([0xfe, 0xff]);

function utf16be(text: string): Buffer {
  return Buffer.from(text, "utf16le").swap16();
}

const site = new FixtureSite();
const engine = new LocalEngine({ allowPrivateNetwork: true });

function options(extra: Record<string, unknown> = {}): ScrapeOptions {
  const yaml = `version: 1\nname: t\nsteps:\n  - id: s\n    scrape: ${JSON.stringify({ url: "https://example.com/", formats: ["markdown", "rawHtml"], ...extra })}\n`;
  const step = loadPipelineText("t.yaml", yaml).pipeline?.steps[0];
  if (!step || step.kind !== "scrape") throw new Error("bad options");
  return step.body;
}

const serve = (type: string, body: Buffer) => (_req: unknown, res: import("node:http").ServerResponse) => void res.writeHead(200, { "content-type": type }).end(body);

beforeAll(async () => {
  site
    .route("/le-bom", serve("text/html", Buffer.concat([LE_BOM, Buffer.from(PAGE, "utf16le")])))
    .route("/be-bom", serve("text/html", Buffer.concat([BE_BOM, utf16be(PAGE)])))
    .route("/le-header", serve("text/html; charset=utf-16le", Buffer.from(PAGE, "utf16le")))
    .route("/be-header", serve("text/html; charset=UTF-16BE", utf16be(PAGE)))
    .route("/plain-utf16-be", serve("text/html; charset=utf-16", utf16be(PAGE)))
    .route("/plain-utf16-le", serve("text/html; charset=utf-16", Buffer.from(PAGE, "utf16le")))
    .route("/meta-le", serve("text/html", Buffer.from(META_PAGE, "utf16le")))
    .route("/meta-be", serve("text/html", utf16be(META_PAGE)))
    .route("/no-type-bom", serve("application/octet-stream", Buffer.concat([LE_BOM, Buffer.from(PAGE, "utf16le")])))
    .route("/text-le", serve("text/plain; charset=utf-16le", Buffer.from("plain words, ünïcödé", "utf16le")))
    .route("/binary", serve("text/html", Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 0, 0, 7, 8])));
  await site.start();
});

afterAll(async () => {
  await engine.close();
  await site.stop();
});

describe("UTF-16 pages", () => {
  it.each(["/le-bom", "/be-bom", "/le-header", "/be-header", "/plain-utf16-be", "/plain-utf16-le"])("reads %s", async (path) => {
    const document = await engine.scrape(`${site.url}${path}`, options());
    expect(document.metadata.title).toBe("Grüße");
    expect(document.markdown).toContain("Ünïcödé text: 日本語 and Привет.");
    expect(document.rawHtml).toBe(PAGE);
  });

  it.each(["/meta-le", "/meta-be"])("reads %s, whose charset only a meta declares", async (path) => {
    const document = await engine.scrape(`${site.url}${path}`, options());
    expect(document.metadata.title).toBe("Meta");
    expect(document.markdown).toContain("Declared in a meta: café 日本語.");
  });

  it("reads a UTF-16 page served as application/octet-stream with a BOM", async () => {
    const document = await engine.scrape(`${site.url}/no-type-bom`, options());
    expect(document.markdown).toContain("日本語");
  });

  it("reads UTF-16 plain text", async () => {
    expect((await engine.scrape(`${site.url}/text-le`, options())).markdown).toBe("plain words, ünïcödé");
  });

  it("still refuses binary content served as text/html", async () => {
    await expect(engine.scrape(`${site.url}/binary`, options())).rejects.toMatchObject({ kind: "bad-content", message: expect.stringContaining("binary content") });
  });
});

describe("decodeText and contentKind on UTF-16", () => {
  it("takes the byte order of a plain utf-16 charset from the bytes, little-endian by default", () => {
    expect(decodeText(utf16be("<p>hé</p>"), "text/html; charset=utf-16")).toBe("<p>hé</p>");
    expect(decodeText(Buffer.from("<p>hé</p>", "utf16le"), "text/html; charset=utf-16")).toBe("<p>hé</p>");
    expect(decodeText(Buffer.from("日本語", "utf16le"), "text/plain; charset=utf-16")).toBe("日本語");
  });

  it("still reads a meta utf-16 in an ASCII document as UTF-8", () => {
    expect(decodeText(Buffer.from('<meta charset="utf-16"><p>héllo</p>'), "text/html")).toBe('<meta charset="utf-16"><p>héllo</p>');
  });

  it("calls UTF-16 HTML html, and NUL-filled bytes binary", () => {
    expect(contentKind("text/html", Buffer.from(PAGE, "utf16le"))).toBe("html");
    expect(contentKind("text/html; charset=utf-16be", utf16be(PAGE))).toBe("html");
    expect(contentKind(undefined, Buffer.concat([BE_BOM, utf16be(PAGE)]))).toBe("html");
    expect(contentKind("text/plain; charset=utf-16le", Buffer.from("一丁七", "utf16le"))).toBe("text");
    expect(contentKind("text/html; charset=utf-16le", Buffer.from("<p>一丁七万丈三上下</p>", "utf16le"))).toBe("html");
    expect(contentKind("text/html", Buffer.from([0, 1, 2, 3, 0, 255, 254, 0]))).toBe("binary");
    expect(contentKind("text/html; charset=utf-16le", Buffer.from([0, 1, 2, 3, 0, 0, 7, 0, 8, 0]))).toBe("binary");
  });
});
