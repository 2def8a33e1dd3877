import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureSite } from "../helpers/site.js";
import { chainSite, startServe, waitFor, type Serve } from "./helpers.js";

let serve: Serve;
let slow: FixtureSite;
beforeAll(async () => {
  slow = await chainSite(40, { slow: true });
  serve = await startServe({ one: {}, two: {} });
});
afterAll(async () => {
  await serve?.stop();
  await slow?.stop();
});

describe("GET /v2/crawl/active", () => {
  it("lists the team's running crawls with their options, and nothing of another team's", async () => {
    const started = await serve.call("POST", "/v2/crawl", { body: { url: `${slow.url}/`, limit: 40, sitemap: "skip" } });
    const active = await serve.call("GET", "/v2/crawl/active");
    expect(active.status).toBe(200);
    expect(active.body).toEqual({ success: true, crawls: [{ id: started.body.id, teamId: "one", url: `${slow.url}/`, created_at: expect.any(String), options: expect.objectContaining({ limit: 40, sitemap: "skip" }) }] });
    expect((await serve.call("GET", "/v2/crawl/active", { key: serve.keys.two })).body).toEqual({ success: true, crawls: [] });
    await serve.call("DELETE", `/v2/crawl/${started.body.id}`);
    const after = await waitFor(() => serve.call("GET", "/v2/crawl/active"), (r) => r.body.crawls.length === 0);
    expect(after.body.crawls).toEqual([]);
  });
});
