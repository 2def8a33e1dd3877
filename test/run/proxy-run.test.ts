import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRun } from "../../src/app/export/export.js";
import { ForwardProxy } from "../helpers/forward-proxy.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, runYaml } from "./helpers.js";

const challenge = readFileSync(new URL("../fixtures/blocked/block/cloudflare-managed-challenge.html", import.meta.url), "utf8");
const site = new FixtureSite();
const basic = new ForwardProxy({ name: "basic", user: "ops", password: "basic-pa55word" });
const enhanced = new ForwardProxy({ name: "enhanced", user: "ops", password: "enhanced-pa55word" });

beforeAll(async () => {
  site.route("/price", (req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Price", `<p>249 via ${req.headers["via-proxy"] ?? "none"}</p>`)));
  site.route("/guarded", (req, res) => {
    if (req.headers["via-proxy"] !== "enhanced") return void res.writeHead(403, { "content-type": "text/html", "cf-mitigated": "challenge" }).end(challenge);
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Guarded", "<p>3 in stock</p>"));
  });
  await Promise.all([site.start(), basic.start(), enhanced.start()]);
});
afterAll(async () => {
  await Promise.all([site.stop(), basic.stop(), enhanced.stop()]);
});

const credentials = (proxy: ForwardProxy, password: string) => proxy.url.replace("http://", `http://ops:${password}@`);

describe("a run through proxies", () => {
  it("bills auto's switch like any page and keeps the proxies' credentials out of events, the store and exports", async () => {
    const env = { SCRAPELINE_PROXY: credentials(basic, "basic-pa55word"), SCRAPELINE_ENHANCED_PROXY: credentials(enhanced, "enhanced-pa55word") };
    const yaml = pipeline(`  - id: price\n    scrape: { url: "${site.url}/price", proxy: basic }\n  - id: guarded\n    scrape: { url: "${site.url}/guarded", proxy: auto, formats: [markdown, rawHtml] }\n`);
    const { result, events, db } = await runYaml(yaml, { env });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(result.credits).toBe(2);
    expect(basic.carried.length).toBeGreaterThanOrEqual(1);
    expect(enhanced.carried.length).toBe(1);
    let exported = "";
    await exportRun({ db, format: "json", write: (text) => (exported += text) });
    expect(exported).toContain("3 in stock");
    expect(exported).toContain("249 via basic");
    const stored = ["", "-wal"].map((suffix) => `${db}${suffix}`).filter(existsSync).map((file) => readFileSync(file).toString("latin1")).join("");
    for (const password of ["basic-pa55word", "enhanced-pa55word"]) {
      expect(JSON.stringify(events)).not.toContain(password);
      expect(stored).not.toContain(password);
      expect(exported).not.toContain(password);
    }
  });
});
