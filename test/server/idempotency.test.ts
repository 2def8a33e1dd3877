import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainSite, startServe, type Serve } from "./helpers.js";
import type { FixtureSite } from "../helpers/site.js";

let serve: Serve;
let site: FixtureSite;
beforeAll(async () => {
  site = await chainSite(3);
  serve = await startServe({ big: { planTokens: 1_000_000 }, small: { planTokens: 15 } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

const post = (path: string, body: unknown, key?: string, team = serve.keys.big!) =>
  fetch(`${serve.server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${team}`, "content-type": "application/json", ...(key ? { "x-idempotency-key": key } : {}) }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe("idempotency keys and spent plans", () => {
  it("answers a repeated request with the same x-idempotency-key with the first answer, starting one job", async () => {
    const body = { url: `${site.url}/`, limit: 3, sitemap: "skip" };
    const [a, b] = await Promise.all([post("/v2/crawl", body, "key-1"), post("/v2/crawl", body, "key-1")]);
    expect(a.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
    const c = await post("/v2/crawl", body, "key-1");
    expect(c.body.id).toBe(a.body.id);
    const fresh = await post("/v2/crawl", body);
    expect(fresh.body.id).not.toBe(a.body.id);
    const reused = await post("/v2/map", { url: `${site.url}/` }, "key-1");
    expect(reused).toEqual({ status: 409, body: { success: false, error: expect.stringMatching(/Idempotency key already used/) } });
  });

  it("keys are per team, and a failed answer is not kept", async () => {
    const bad = await post("/v2/crawl", { url: `${site.url}/`, limitt: 3 }, "key-2");
    expect(bad.status).toBe(400);
    const good = await post("/v2/crawl", { url: `${site.url}/`, limit: 2, sitemap: "skip" }, "key-2");
    expect(good.status).toBe(200);
  });

  it("refuses work with 402 once a team has less than a credit of its plan left", async () => {
    const first = await post("/v2/scrape", { url: `${site.url}/p/0`, maxAge: 0 }, undefined, serve.keys.small!);
    expect(first.status).toBe(200);
    const second = await post("/v2/scrape", { url: `${site.url}/p/1`, maxAge: 0 }, undefined, serve.keys.small!);
    expect(second.status).toBe(402);
    expect(second.body).toMatchObject({ success: false, error: expect.stringMatching(/^Insufficient credits/) });
    // v2 counts every endpoint (v1 would count extract only).
    const usage = await fetch(`${serve.server.url}/v2/team/token-usage`, { headers: { authorization: `Bearer ${serve.keys.small}` } }).then((r) => r.json() as Promise<any>);
    expect(usage.data.remainingTokens).toBe(0);
  });
});
