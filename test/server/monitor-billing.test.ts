import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

const site = new FixtureSite();
let serve: Serve;

beforeAll(async () => {
  site.route("/a", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("A", "<p>one</p>")));
  site.route("/b", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("B", "<p>two</p>")));
  await site.start();
  serve = await startServe({ one: {}, two: {} });
});
afterAll(async () => {
  await serve.stop();
  await site.stop();
});

describe("/v2/monitor billing", () => {
  it("counts what a check spends in the team's token usage, and only that team's", async () => {
    const usage = async (key?: string) => (await serve.call("GET", "/v2/team/token-usage", key ? { key } : {})).body.data.remainingTokens as number;
    const before = await usage();
    const otherBefore = await usage(serve.keys.two!);
    const made = await serve.call("POST", "/v2/monitor", { body: { name: "two pages", schedule: { cron: "0 * * * *", timezone: "UTC" }, targets: [{ type: "scrape", urls: [`${site.url}/a`, `${site.url}/b`] }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    const run = await serve.call("POST", `/v2/monitor/${id}/run`);
    expect(run.status).toBe(200);
    const done = await waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks/${run.body.data.id}`), (r) => r.body.data.status !== "running");
    expect(done.body.data).toMatchObject({ status: "completed", summary: { totalPages: 2 } });
    // Two scraped pages, a credit each (15 tokens a credit), as a batch scrape of them would cost.
    const spent = before - (await usage());
    expect(spent).toBe(2 * 15);
    expect(await usage(serve.keys.two!)).toBe(otherBefore);
    // A deleted monitor's checks stay billed.
    expect((await serve.call("DELETE", `/v2/monitor/${id}`)).status).toBe(200);
    expect(before - (await usage())).toBe(spent);
  });
});
