import { mkdtempSync, readdirSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx } from "../engines/parse/fixtures.js";
import { startServe, type Serve } from "./helpers.js";

let serve: Serve;
const previousTmp = process.env.TMPDIR;
/** The server's temporary uploads land here, so a test can see that none is left behind. */
const uploads = mkdtempSync(join(tmpdir(), "scrapeline-parse-tmp-"));

/** Upload directories still on disk (the serve helper keeps its database beside them). */
const leftovers = () => readdirSync(uploads).filter((name) => name.startsWith("scrapeline-upload-"));

beforeAll(async () => {
  process.env.TMPDIR = uploads;
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve.stop();
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
});

async function upload(file: Uint8Array | undefined, filename: string, options?: unknown) {
  const form = new FormData();
  if (file) form.append("file", new Blob([file]), filename);
  if (options !== undefined) form.append("options", typeof options === "string" ? options : JSON.stringify(options));
  const res = await fetch(`${serve.server.url}/v2/parse`, { method: "POST", headers: { authorization: `Bearer ${serve.keys.a}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /v2/parse", () => {
  it("answers a scrape-shaped document for an uploaded DOCX, billed 1 credit, leaving no temporary file", async () => {
    const { status, body } = await upload(await makeDocx(), "report.docx", { formats: ["markdown", "links"] });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain("# Quarterly report");
    expect(body.data.links).toContain("https://example.com/report");
    expect(body.data.metadata).toMatchObject({ sourceURL: "report.docx", url: "report.docx", title: "Quarterly report", author: "Ada Lovelace", statusCode: 200, creditsUsed: 1 });
    expect(leftovers()).toEqual([]);
    const usage = await serve.call("GET", "/v2/team/token-usage");
    expect(usage.body.data.remainingTokens).toBe(usage.body.data.planTokens - 15);
  });

  it("refuses options that need a browser with a 400 naming the field", async () => {
    for (const [options, message] of [
      [{ actions: [{ type: "wait", milliseconds: 10 }] }, "Bad request: actions is not supported by parse: it needs a page in a browser"],
      [{ waitFor: 100 }, "Bad request: waitFor is not supported by parse: it needs a page in a browser"],
      [{ mobile: true }, "Bad request: mobile is not supported by parse: it needs a page in a browser"],
      [{ location: { country: "DE" } }, "Bad request: location is not supported by parse: it needs a page in a browser"],
      [{ formats: ["markdown", "screenshot"] }, "Bad request: format screenshot is not supported by parse"],
      [{ formats: ["markdown", { type: "changeTracking" }] }, "Bad request: format changeTracking is not supported by parse"],
    ] as const) {
      const { status, body } = await upload(new TextEncoder().encode("a,b\n1,2\n"), "x.csv", options);
      expect(status, JSON.stringify(options)).toBe(400);
      expect(body.error).toBe(message);
    }
    expect(leftovers()).toEqual([]);
  });

  it("a bad file, a missing file field and a non-multipart body are clear errors", async () => {
    const bad = await upload(new TextEncoder().encode("just words"), "report.docx");
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ success: false, code: "SCRAPE_UNSUPPORTED_FILE_ERROR" });
    expect(bad.body.error).toContain("refused as mislabelled");
    const none = await upload(undefined, "", { formats: ["markdown"] });
    const noFile = "Bad request: the multipart body has no file field";
    expect(none).toEqual({ status: 400, body: { success: false, code: "BAD_REQUEST", error: noFile, details: [{ code: "custom", path: [], message: noFile }] } });
    const json = await serve.call("POST", "/v2/parse", { body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(leftovers()).toEqual([]);
  });

  it("answers 413 to a declared body over 50 MB before reading it", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${serve.server.url}/v2/parse`, { method: "POST", headers: { authorization: `Bearer ${serve.keys.a}`, "content-type": "multipart/form-data; boundary=x", "content-length": String(60 * 1024 * 1024) } }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      // Only a first chunk is ever sent: the answer must come without the rest.
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toBe("Payload too large: uploads are limited to 52428800 bytes (50 MB)");
  });

  it("stops a streamed (chunked) upload at 50 MB with 413 and removes what was written", async () => {
    const big = new Uint8Array(51 * 1024 * 1024);
    const { status, body } = await upload(big, "big.csv");
    expect(status).toBe(413);
    expect(body.error).toContain("Payload too large");
    expect(leftovers()).toEqual([]);
  });

  it("names the upload, never the temporary copy: links into the file are fragments, and a CSV has no modifiedTime (the copy's time is not the file's)", async () => {
    const docx = await upload(await makeDocx(), "report.docx", { formats: ["markdown", "html", "links"] });
    expect(docx.status).toBe(200);
    expect(docx.body.data.markdown).toContain("](#footnote-1)");
    expect(JSON.stringify(docx.body)).not.toMatch(/scrapeline-upload-|file:/);
    expect(typeof docx.body.data.metadata.modifiedTime).toBe("string"); // the DOCX's own property
    const csv = await upload(new TextEncoder().encode("a,b\n1,2\n"), "stock.csv");
    expect(csv.status).toBe(200);
    expect(csv.body.data.metadata.modifiedTime).toBeUndefined();
    expect(csv.body.data.metadata.sourceURL).toBe("stock.csv");
  });
});
