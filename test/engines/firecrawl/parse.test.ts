import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPipelineFile, type RunEvent } from "../../../src/app/index.js";
import { parseFile } from "../../../src/engines/local/parse/index.js";
import { FirecrawlEngine } from "../../../src/engines/firecrawl/index.js";
import { FakeService, json, serviceDocument, type Multipart } from "../../helpers/fake-service.js";
import { parseRoute } from "../../helpers/fake-parse.js";
import { makeDocx } from "../parse/fixtures.js";
import { parseOptions } from "../parse/options.js";
import { makePdf } from "../pdf/make-pdf.js";
import { pipeline, readDocuments, workdir } from "../../run/helpers.js";

const KEY = "fc-parse-0123456789-secret";
const service = new FakeService();
const uploads: Multipart[] = [];
beforeAll(async () => void (await service.start()));
afterAll(async () => service.stop());
beforeEach(() => {
  service.calls.length = 0;
  uploads.length = 0;
  service.on("POST /v2/parse", parseRoute((u) => uploads.push(u)));
});

/** A directory with a pipeline on the remote engine and the files it parses. */
function project(files: Record<string, string | Uint8Array>, steps: string, extra = "") {
  const dir = workdir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const file = join(dir, "p.yaml");
  writeFileSync(file, pipeline(steps, `engine: { kind: firecrawl, baseUrl: "${service.url}" }\n${extra}`));
  return { dir, file, db: join(dir, "test.db") };
}

async function run(file: string, db: string) {
  const events: RunEvent[] = [];
  const result = await runPipelineFile(file, { db, env: { FIRECRAWL_API_KEY: KEY }, onEvent: (e) => events.push(e) });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return { result, events, docs: readDocuments(db, result.runId) };
}

describe("parse steps on the remote engine (POST /v2/parse)", () => {
  it("uploads each file as multipart (file + options JSON) and stores the answer as a local parse would: file: URL, sourceFile, the service's credits", async () => {
    const docx = await makeDocx();
    const p = project({ "docs/report.docx": docx, "docs/prices.csv": "item,price\napple,2\n", "q3.pdf": makePdf([["one"], ["two"], ["three"]]) }, `  - id: files\n    parse: { files: ["docs/*", q3.pdf], formats: [markdown, links], onlyMainContent: false }\n`);
    const { result, docs } = await run(p.file, p.db);
    expect(result.status).toBe("succeeded");
    const calls = service.calls.filter((c) => c.path === "/v2/parse");
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // The bytes arrive whole, named by the file's own name; the options are those the service takes.
    const sent = uploads.find((u) => u.files[0]?.filename === "report.docx")!;
    expect(sent.files).toHaveLength(1);
    expect(Buffer.compare(sent.files[0]!.bytes, Buffer.from(docx))).toBe(0);
    const options = JSON.parse(sent.fields["options"]!);
    expect(options).toEqual({ formats: [{ type: "markdown" }, { type: "links" }], onlyMainContent: false, timeout: 30000, parsers: [{ type: "pdf" }], removeBase64Images: true, blockAds: true });
    expect(docs.map((d) => d.document.metadata.sourceFile)).toEqual(["docs/prices.csv", "docs/report.docx", "q3.pdf"]);
    const report = docs.find((d) => d.document.metadata.sourceFile === "docs/report.docx")!;
    const url = pathToFileURL(join(p.dir, "docs/report.docx")).href;
    expect(report.url).toBe(url);
    expect(report.document.metadata).toMatchObject({ sourceURL: url, url, title: "Quarterly report", format: "docx", creditsUsed: 1 });
    // Links into the file (footnotes) come back relative to the upload and are resolved against the file's URL.
    const local = await parseFile({ name: "report.docx", bytes: docx, url }, parseOptions());
    expect(local.document.markdown).toContain(`](${url}#footnote-1)`);
    expect(report.document.markdown).toBe(local.document.markdown);
    expect(docs.find((d) => d.document.metadata.sourceFile === "q3.pdf")!.creditsUsed).toBe(3);
    // A CSV has no property of its own: the file system's time is kept when the service gives none.
    expect(typeof docs.find((d) => d.document.metadata.sourceFile === "docs/prices.csv")!.document.metadata.modifiedTime).toBe("string");
    expect(result.credits).toBe(5);
  });

  it("tracks changes of files itself: changeTracking is never sent to the service, and the second run is same, the third changed", async () => {
    const p = project({ "prices.csv": "item,price\napple,2\n" }, `  - id: prices\n    parse: { files: [prices.csv], formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`);
    const first = await run(p.file, p.db);
    expect(first.result.status).toBe("succeeded");
    expect(JSON.parse(uploads[0]!.fields["options"]!).formats).toEqual([{ type: "markdown" }]);
    expect(first.docs[0]!.document.changeTracking).toMatchObject({ changeStatus: "new" });
    expect((await run(p.file, p.db)).docs[0]!.document.changeTracking).toMatchObject({ changeStatus: "same" });
    writeFileSync(join(p.dir, "prices.csv"), "item,price\napple,3\n");
    const third = await run(p.file, p.db);
    expect(third.docs[0]!.document.changeTracking).toMatchObject({ changeStatus: "changed" });
    expect(third.docs[0]!.document.changeTracking!.diff?.text).toContain("+| apple | 3 |");
  });

  it("takes the answer's creditsUsed when the document has none, and the rules' figure when neither has one", async () => {
    service.on("POST /v2/parse", (_call, res) => {
      const n = service.calls.filter((c) => c.path === "/v2/parse").length;
      const doc = serviceDocument("upload", "# Parsed") as { metadata: Record<string, unknown> };
      delete doc.metadata["creditsUsed"];
      json(res, 200, { success: true, data: doc, ...(n === 1 ? { creditsUsed: 7 } : {}) });
    });
    const p = project({ "a.csv": "a\n1\n", "b.csv": "b\n2\n" }, `  - id: files\n    parse: { files: [a.csv, b.csv] }\n`, "concurrency: 1\n");
    const { docs } = await run(p.file, p.db);
    expect(docs.map((d) => [d.document.metadata.sourceFile, d.creditsUsed])).toEqual([["a.csv", 7], ["b.csv", 1]]);
  });

  it("fails a file the service refuses (400, 413, success: false) without retrying it, and retries a 502", async () => {
    service.on("POST /v2/parse", async (call, res, n) => {
      const text = call.raw.toString("latin1");
      if (text.includes('filename="bad.csv"')) return json(res, 400, { success: false, error: "Unsupported file type" });
      if (text.includes('filename="big.csv"')) return json(res, 413, { success: false, error: "Payload too large" });
      if (text.includes('filename="odd.csv"')) return json(res, 200, { success: false, error: "could not convert" });
      if (n === 1) return res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>");
      return parseRoute()(call, res, n);
    });
    const p = project({ "bad.csv": "x\n", "big.csv": "y\n", "odd.csv": "z\n", "ok.csv": "a,b\n1,2\n" }, `  - id: files\n    continueOnError: true\n    parse: { files: [ok.csv, bad.csv, big.csv, odd.csv] }\n`, "concurrency: 1\n");
    const { docs, events } = await run(p.file, p.db);
    expect(docs.map((d) => d.document.metadata.sourceFile)).toEqual(["ok.csv"]);
    expect(docs[0]!.document.markdown?.trimEnd()).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |");
    expect(events.filter((e) => e.type === "document-retried").map((e) => e.type === "document-retried" && e.url.endsWith("ok.csv"))).toEqual([true]);
    const failed = Object.fromEntries(events.flatMap((e) => (e.type === "document-failed" ? [[e.url.split("/").pop(), [e.kind, e.reason]]] : [])));
    expect(failed).toEqual({
      "bad.csv": ["invalid-input", "the service refused the parse of bad.csv as invalid: Unsupported file type"],
      "big.csv": ["too-large", "the service refused the parse of big.csv as too large (HTTP 413): Payload too large"],
      "odd.csv": ["bad-content", "the service could not parse odd.csv: could not convert"],
    });
    const tries = (name: string) => service.calls.filter((c) => c.raw.toString("latin1").includes(`filename="${name}"`)).length;
    expect([tries("bad.csv"), tries("big.csv"), tries("odd.csv"), tries("ok.csv")]).toEqual([1, 1, 1, 2]);
  });

  it("waits for the service as long as the parse's timeout allows, beyond the engine's usual request limit", async () => {
    service.on("POST /v2/parse", async (call, res, n) => {
      await new Promise((done) => setTimeout(done, 800));
      return parseRoute()(call, res, n);
    });
    const engine = new FirecrawlEngine({ baseUrl: service.url, apiKey: KEY, timeoutMs: 100 });
    const doc = await engine.parse({ name: "a.csv", bytes: new TextEncoder().encode("a,b\n1,2\n"), url: "file:///data/a.csv" }, parseOptions({ timeout: 5000 }));
    expect(doc.markdown?.trimEnd()).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |");
    expect(doc.metadata.sourceURL).toBe("file:///data/a.csv");
    // A scrape on the same engine keeps the usual limit.
    service.on("POST /v2/scrape", async (call, res) => {
      await new Promise((done) => setTimeout(done, 800));
      json(res, 200, { success: true, data: serviceDocument("https://example.com/", "late") });
    });
    await expect(engine.scrape("https://example.com/", parseOptions())).rejects.toMatchObject({ kind: "timeout" });
  });
});
