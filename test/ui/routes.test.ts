import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { startUiServer, type RunningUi } from "../../src/ui/server.js";
import { workdir } from "../run/helpers.js";

/** The UI's answers over HTTP, in process: paging, not-found pages, methods and headers. */
let ui: RunningUi;
let runIds: number[] = [];

beforeAll(async () => {
  const db = join(workdir(), "routes.db");
  const store = new SqliteStore(db);
  for (let r = 0; r < 55; r++) {
    const run = store.createRun({ pipelineName: r % 5 ? "many" : "few", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
    store.startStep(run.id, "s", "scrape");
    const pages = r === 54 ? 120 : 1;
    for (let i = 0; i < pages; i++) {
      const url = `https://example.com/${String(i).padStart(3, "0")}`;
      store.saveDocument({ runId: run.id, stepId: "s", url, fetchedAt: new Date().toISOString(), creditsUsed: 1, document: { markdown: `# ${i}`, metadata: { sourceURL: url, url, statusCode: 200 } } });
    }
    store.finishStep(run.id, "s", "succeeded");
    store.finishRun(run.id, "succeeded");
    runIds.push(run.id);
  }
  store.close();
  ui = await startUiServer({ db, port: 0 });
});

afterAll(() => ui?.close());

const get = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${ui.url.replace(/\/$/, "")}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const rows = (text: string) => [...text.matchAll(/data-run="(\d+)"/g)].map((m) => Number(m[1]));
const next = (text: string) => /<a rel="next" href="([^"]+)"/.exec(text)?.[1]?.replaceAll("&amp;", "&");

describe("the UI's routes", () => {
  it("pages the runs 50 at a time, newest first, keeping the filter", async () => {
    const first = await get("/");
    expect(rows(first.text)).toEqual(runIds.slice(5).reverse());
    const second = await get(next(first.text)!);
    expect(rows(second.text)).toEqual(runIds.slice(0, 5).reverse());
    expect(next(second.text)).toBeUndefined();
    const few = await get("/?pipeline=few");
    expect(rows(few.text)).toEqual(runIds.filter((_, r) => r % 5 === 0).reverse());
  });

  it("pages a step's documents 50 at a time", async () => {
    const last = runIds[runIds.length - 1]!;
    const first = await get(`/runs/${last}`);
    expect(first.text).toContain("120 document(s), 1–50 shown");
    const third = await get(`/runs/${last}?step=s&offset=100`);
    expect(third.text).toContain("101–120 shown");
    expect([...third.text.matchAll(/href="\/runs\/\d+\/doc\?step=s&amp;url=([^"]+)"/g)].length).toBe(20);
  });

  it("answers unknown runs, pages and documents with 404 pages, and only GET and HEAD", async () => {
    for (const path of ["/runs/99999", "/runs/99999/changes", `/runs/${runIds[0]}/doc?step=s&url=nope`, "/nothing", "/runs/abc", "/asset?ref=blob:sha256:00"]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-security-policy"), path).toContain("default-src 'none'");
    }
    expect((await get("/", { method: "POST" })).status).toBe(405);
    const head = await get("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("serves its own stylesheet and script with every page's headers", async () => {
    const css = await get("/assets/ui.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.text).toContain("prefers-color-scheme: dark");
    const js = await get("/assets/ui.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    for (const r of [css, js]) {
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
    }
  });
});
