import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type Serve } from "./helpers.js";

/** A 400 keeps our sentence in `error` and lists each problem in `details`, in the service's (zod) shape. */

let serve: Serve;

beforeAll(async () => {
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
});

async function refused(path: string, body: unknown) {
  const r = await serve.call("POST", path, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body).toMatchObject({ success: false, code: "BAD_REQUEST", error: expect.any(String), details: expect.any(Array) });
  return r.body as { error: string; details: Array<Record<string, unknown>> };
}

describe("details of a refused body", () => {
  it("an unknown key is unrecognized_keys at its parent, the sentence still says did you mean", async () => {
    const body = await refused("/v2/scrape", { url: "http://example.com", formatz: ["markdown"] });
    expect(body.error).toContain('did you mean "formats"');
    expect(body.details).toEqual([{ code: "unrecognized_keys", keys: ["formatz"], path: [], message: expect.stringContaining('unknown key "formatz"') }]);
  });

  it("a wrong type, a missing key, a number out of range and a value not in the list", async () => {
    expect((await refused("/v2/scrape", { url: "http://example.com", formats: "markdown" })).details).toEqual([
      expect.objectContaining({ code: "invalid_type", path: ["formats"], expected: "array", received: "string" }),
    ]);
    expect((await refused("/v2/scrape", { formats: ["markdown"] })).details).toEqual([expect.objectContaining({ code: "invalid_type", path: ["url"], expected: "string", received: "undefined" })]);
    expect((await refused("/v2/scrape", { url: "http://example.com", waitFor: -1 })).details).toEqual([
      expect.objectContaining({ code: "too_small", path: ["waitFor"], minimum: 0, type: "number", inclusive: true }),
    ]);
    const proxy = (await refused("/v2/scrape", { url: "http://example.com", proxy: "turbo" })).details;
    expect(proxy).toEqual([expect.objectContaining({ code: "invalid_enum_value", path: ["proxy"], received: "turbo", options: expect.arrayContaining(["basic", "auto"]) })]);
  });

  it("a problem deep in the body has its whole path", async () => {
    const body = await refused("/v2/crawl", { url: "http://example.com", scrapeOptions: { formats: ["markdown", { type: "screenshot", quality: 500 }] } });
    expect(body.details).toEqual([expect.objectContaining({ code: "too_big", path: ["scrapeOptions", "formats", 1, "quality"], maximum: 100 })]);
  });

  it("a check with no issue of its own gives one custom issue with its message", async () => {
    const body = await refused("/v2/scrape", { url: "http://example.com", zeroDataRetention: true });
    expect(body.details).toEqual([{ code: "custom", path: [], message: body.error }]);
  });
});
