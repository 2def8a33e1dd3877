import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** An extract job's status and credits read back as they were stored and charged. */

let serve: Serve;
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/kettle", htmlPage("Kettle", "<p>A kettle.</p>")).page("/mug", htmlPage("Mug", "<p>A mug.</p>"));
  site.route("/broken", (req) => req.socket.destroy());
  await site.start();
  serve = await startServe({ a: {} }, { env: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

const schema = { type: "object", properties: { title: { type: "string" } } };
const finished = (path: string) => waitFor(() => serve.call("GET", path), (r) => r.body?.status !== "processing");

describe("extract status", () => {
  it("a job that failed reads failed, with success false and why", async () => {
    const start = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/broken`], schema, scrapeOptions: { timeout: 2000 } } });
    expect(start.status).toBe(200);
    const done = await finished(`/v1/extract/${start.body.id}`);
    expect(done.body).toMatchObject({ success: false, status: "failed", error: expect.any(String) });
    const v2 = await serve.call("GET", `/v2/extract/${start.body.id}`);
    expect(v2.body).toMatchObject({ success: false, status: "failed" });
  });

  it("creditsUsed is what the team was charged for the job", async () => {
    const before = await serve.call("GET", "/v2/team/token-usage");
    const start = await serve.call("POST", "/v1/extract", { body: { urls: [`${site.url}/kettle`, `${site.url}/mug`], schema } });
    const done = await finished(`/v1/extract/${start.body.id}`);
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ success: true, status: "completed" });
    const after = await serve.call("GET", "/v2/team/token-usage");
    const charged = (before.body.data.remainingTokens - after.body.data.remainingTokens) / 15;
    expect(charged).toBeGreaterThan(0);
    expect(done.body.creditsUsed).toBe(charged);
  });
});

describe("what this server cannot do", () => {
  it("enableWebSearch is a 400 at request time naming what is missing", async () => {
    for (const version of ["v1", "v2"]) {
      const r = await serve.call("POST", `/${version}/extract`, { body: { urls: [`${site.url}/kettle`], schema, enableWebSearch: true } });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error).toContain("enableWebSearch needs web search");
    }
  });
});
