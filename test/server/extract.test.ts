import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlm } from "../helpers/llm-server.js";
import { FixtureSite } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let withModel: Serve;
const site = new FixtureSite();
const llm = new FakeLlm();

const product = (name: string, price: number) =>
  `<html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name, offers: { "@type": "Offer", price } })}</script></head><body><h1>${name}</h1><p>Costs ${price}.</p></body></html>`;

beforeAll(async () => {
  site.page("/p/kettle", product("Kettle", 24.5)).page("/p/mug", product("Mug", 6));
  await site.start();
  await llm.start();
  serve = await startServe({ alpha: {}, beta: {} }, { env: {} });
  withModel = await startServe({ gamma: {} }, { env: { SCRAPELINE_LLM_BASE_URL: llm.url, SCRAPELINE_LLM_MODEL: "served-model" } });
});
afterAll(async () => {
  await serve?.stop();
  await withModel?.stop();
  await site.stop();
  await llm.stop();
});

const schema = { type: "object", properties: { products: { type: "array", items: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } } } } };
const finished = (s: Serve, path: string, key?: string) => waitFor(() => s.call("GET", path, key ? { key } : {}), (r) => r.body?.status !== "processing");

describe("extract on serve", () => {
  it("v1: starts a job ({success, id}, no invalidURLs by default) and reports the finished extract", async () => {
    const start = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/p/kettle`, `${site.url}/p/mug`], schema, showSources: true } });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ success: true, id: expect.any(String) });
    const done = await finished(serve, `/v1/extract/${start.body.id}`);
    expect(done.body).toMatchObject({
      success: true,
      status: "completed",
      data: { products: [{ name: "Kettle", price: 24.5 }, { name: "Mug", price: 6 }] },
      sources: { "products[0]": [`${site.url}/p/kettle`], "products[1]": [`${site.url}/p/mug`] },
      tokensUsed: 0,
      creditsUsed: 2, // the two pages, as the team's usage is charged
      expiresAt: expect.any(String),
    });
    expect(done.body).not.toHaveProperty("invalidURLs");
  });

  it("v1: invalid URLs fail the request with 400 unless ignoreInvalidURLs is true, which lists them", async () => {
    const refused = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/p/kettle`, "not a url"], schema } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: expect.stringContaining("not a url") });
    const ignored = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/p/kettle`, "not a url"], schema, ignoreInvalidURLs: true } });
    expect(ignored.body).toEqual({ success: true, id: expect.any(String), invalidURLs: ["not a url"] });
    const none = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/p/kettle`], schema, ignoreInvalidURLs: true } });
    expect(none.body.invalidURLs).toEqual([]);
    await finished(serve, `/v1/extract/${ignored.body.id}`);
  });

  it("v2: ignoreInvalidURLs is on by default; unknown keys are 400; another team's job is not found", async () => {
    const start = await serve.call("POST", "/v2/extract", { body: { urls: [`${site.url}/p/mug`, "ftp://x"], schema } });
    expect(start.body).toEqual({ success: true, id: expect.any(String), invalidURLs: ["ftp://x"] });
    expect((await serve.call("POST", "/v2/extract", { body: { urls: [`${site.url}/p/mug`], schemaa: schema } })).status).toBe(400);
    const other = await serve.call("GET", `/v2/extract/${start.body.id}`, { key: serve.keys.beta });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: expect.stringMatching(/not found/i) });
    await finished(serve, `/v2/extract/${start.body.id}`);
  });

  it("with the operator's model, bills ceil(tokens / 15) on top of the pages, seen in token usage", async () => {
    llm.fallback = () => ({ content: JSON.stringify({ title: "Kettle" }), tokens: 150 });
    const before = await withModel.call("GET", "/v2/team/token-usage");
    const start = await withModel.call("POST", "/v1/extract", { body: { urls: [`${site.url}/p/kettle`], prompt: "the product's title" } });
    const done = await finished(withModel, `/v1/extract/${start.body.id}`);
    expect(done.body).toMatchObject({ success: true, status: "completed", data: { title: "Kettle" }, tokensUsed: 150, creditsUsed: 11 });
    const after = await withModel.call("GET", "/v2/team/token-usage");
    expect(before.body.data.remainingTokens - after.body.data.remainingTokens).toBe(15 * (1 + 10));
    expect(llm.requests.at(-1)!.body.model).toBe("served-model");
  });
});
