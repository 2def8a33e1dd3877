import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningConversions } from "../../src/engines/local/parse/index.js";
import { makePdf } from "../engines/pdf/make-pdf.js";
import { deepDocx, longStringXlsx, paragraphsDocx } from "../engines/parse/bombs.js";
import { makeDocx } from "../engines/parse/fixtures.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let site: FixtureSite;

beforeAll(async () => {
  site = await new FixtureSite().page("/article", htmlPage("Article", "<p>Served while a bomb converts.</p>")).start();
  serve = await startServe({ a: {}, b: {} });
});
afterAll(async () => {
  await serve.stop();
  await site.stop();
});

async function upload(file: Uint8Array, filename: string, options: unknown = {}, key = serve.keys.a) {
  const form = new FormData();
  form.append("file", new Blob([file]), filename);
  form.append("options", JSON.stringify(options));
  const res = await fetch(`${serve.server.url}/v2/parse`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const text = (value: string) => new TextEncoder().encode(value);

describe("POST /v2/parse: a file over a limit or unreadable is the client's (4xx), and serve lives on", () => {
  it("the two bombs (an 80 MB document.xml, one 80 MB shared string) are 413s naming the limit", { timeout: 180_000 }, async () => {
    const docx = await upload(paragraphsDocx(80), "bomb.docx");
    expect(docx).toEqual({ status: 413, body: { success: false, error: "bomb.docx: its part word/document.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb" } });
    const xlsx = await upload(longStringXlsx(80), "bomb.xlsx");
    expect(xlsx.status).toBe(413);
    expect(xlsx.body.error).toBe("bomb.xlsx: its part xl/sharedStrings.xml inflates to more than 64 MB (the limit of one part): refused as a possible zip bomb");
    const cell = await upload(longStringXlsx(2), "cell.xlsx");
    expect(cell.status).toBe(413);
    expect(cell.body.error).toContain("longer than 1048576 characters (the limit of one string or cell)");
  });

  it("an empty file, a mislabelled .pdf (HTML, a zip), a truncated PDF and too deep nesting are 422s", { timeout: 120_000 }, async () => {
    const pdf = makePdf([["one"], ["two"]]);
    const cases: Array<[Uint8Array, string, string]> = [
      [new Uint8Array(), "empty.pdf", "empty.pdf is empty"],
      [text("<!doctype html><html><body><p>hi</p></body></html>"), "page.pdf", "page.pdf is named .pdf but its content is HTML: refused as mislabelled (rename it to match its content)"],
      [await makeDocx(), "report.pdf", "report.pdf is named .pdf but its content is DOCX: refused as mislabelled (rename it to match its content)"],
      [pdf.subarray(0, Math.floor(pdf.length / 3)), "cut.pdf", "cut.pdf: cannot read PDF"],
      [deepDocx(100_000), "deep.docx", "deep.docx: word/document.xml nests elements more than 256 deep (the limit of a parsed file): refused"],
    ];
    for (const [bytes, name, message] of cases) {
      const { status, body } = await upload(bytes, name);
      expect(status, name).toBe(422);
      expect(body).toMatchObject({ success: false, code: "SCRAPE_UNSUPPORTED_FILE_ERROR" });
      expect(body.error, name).toContain(message);
    }
  });

  it("deeply nested HTML converts (nesting past 256 is flattened); deeply nested options JSON is a 400", { timeout: 120_000 }, async () => {
    const deep = await upload(text(`<html><body>${"<div>".repeat(100_000)}bottom${"</div>".repeat(100_000)}</body></html>`), "deep.html");
    expect(deep.status).toBe(200);
    expect(deep.body.data.markdown).toContain("bottom");
    const form = new FormData();
    form.append("file", new Blob([text("a,b\n")]), "a.csv");
    form.append("options", `{"formats":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const res = await fetch(`${serve.server.url}/v2/parse`, { method: "POST", headers: { authorization: `Bearer ${serve.keys.a}` }, body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Bad request: the body is nested more than 100 levels deep/);
  });

  it("while a file that outgrows the 512 MB heap converts, another team is served; it fails as a 413 and serve answers after", { timeout: 300_000 }, async () => {
    // 12 MB of short paragraphs passes every cap, but mammoth would need over a gigabyte for it.
    const bomb = upload(paragraphsDocx(12), "dense.docx", { timeout: 300_000 });
    await waitFor(async () => runningConversions(), (running) => running > 0, 6000);
    const scrape = await serve.call("POST", "/v2/scrape", { key: serve.keys.b, body: { url: `${site.url}/article` } });
    expect(scrape.status).toBe(200);
    expect(scrape.body.data.markdown).toContain("Served while a bomb converts.");
    expect(runningConversions()).toBe(1);
    const crawl = await serve.call("POST", "/v2/crawl", { key: serve.keys.b, body: { url: `${site.url}/article`, limit: 1, sitemap: "skip" } });
    const job = await waitFor(() => serve.call("GET", `/v2/crawl/${crawl.body.id}`, { key: serve.keys.b }), (r) => r.body.status !== "scraping", 6000);
    expect(job.body).toMatchObject({ success: true, status: "completed", completed: 1 });
    const answer = await bomb;
    expect(answer).toEqual({ status: 413, body: { success: false, error: "dense.docx needs more than 512 MB of memory to convert (the limit of one parsed file): refused" } });
    const after = await upload(text("a,b\n1,2\n"), "after.csv");
    expect(after.status).toBe(200);
    expect(after.body.data.markdown).toContain("| 1 | 2 |");
  });
});
