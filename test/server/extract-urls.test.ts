import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { load } from "../pipeline/helpers.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** One validity rule for an extract's urls: ignoreInvalidURLs only decides between the 400 and the list. */

let serve: Serve;
const site = new FixtureSite();
const schema = { type: "object", properties: { title: { type: "string" } } };
const INVALID = ["https://*.example.com/*", "http://intranet/page", "ftp://example.com/file", "not a url"];

beforeAll(async () => {
  site.page("/a", htmlPage("A", "<p>a</p>"));
  await site.start();
  serve = await startServe({ a: {} }, { env: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

describe("extract URL validity", () => {
  for (const version of ["v1", "v2"] as const) {
    for (const entry of INVALID) {
      it(`${version}: ${entry} is a 400 with ignoreInvalidURLs false and listed with true`, async () => {
        const refused = await serve.call("POST", `/${version}/extract`, { body: { urls: [`${site.url}/a`, entry], schema, ignoreInvalidURLs: false } });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toContain(JSON.stringify(entry));
        const listed = await serve.call("POST", `/${version}/extract`, { body: { urls: [`${site.url}/a`, entry], schema, ignoreInvalidURLs: true } });
        expect(listed.status).toBe(200);
        expect(listed.body.invalidURLs).toEqual([entry]);
        const done = await waitFor(() => serve.call("GET", `/${version}/extract/${listed.body.id}`), (r) => r.body?.status !== "processing");
        expect(done.body).toMatchObject({ success: true, status: "completed" });
      });
    }
  }

  it("a glob in the path and an IP host are valid both ways", async () => {
    for (const ignoreInvalidURLs of [false, true]) {
      const r = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/a*`], schema, ignoreInvalidURLs } });
      expect(r.status).toBe(200);
      if (ignoreInvalidURLs) expect(r.body.invalidURLs).toEqual([]);
      await waitFor(() => serve.call("GET", `/v1/extract/${r.body.id}`), (x) => x.body?.status !== "processing");
    }
  });

  it("a pipeline's extract step follows the same rule", () => {
    for (const entry of INVALID.slice(0, 2)) {
      const strict = load({ version: 1, name: "t", steps: [{ id: "x", extract: { urls: [entry] } }] });
      expect(strict.diagnostics.some((d) => d.severity === "error" && d.code === "invalid-url")).toBe(true);
      const lenient = load({ version: 1, name: "t", steps: [{ id: "x", extract: { urls: ["https://e.com/a", entry], ignoreInvalidURLs: true } }] });
      expect(lenient.diagnostics.some((d) => d.severity === "warning" && d.code === "invalid-url")).toBe(true);
    }
  });
});
