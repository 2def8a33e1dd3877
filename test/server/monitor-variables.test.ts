import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** A monitor runs what its team wrote, literally: nothing in its body reads the server's environment. */

const site = new FixtureSite();
let serve: Serve;
const asked: string[] = [];

beforeAll(async () => {
  site.route("/item", (req, res) => {
    asked.push(`${req.url} ${String(req.headers["x-probe"])}`);
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Item", "<p>price 1</p>"));
  });
  await site.start();
  serve = await startServe({ a: {} }, { env: { SCRAPELINE_SECRET_KEY: "server-only-key-991", SCRAPELINE_LLM_API_KEY: "llm-key-314" } });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

const monitorBody = (url: string, probe: string) => ({ name: "probe", schedule: { cron: "0 * * * *", timezone: "UTC" }, targets: [{ type: "scrape", urls: [url], scrapeOptions: { headers: { "x-probe": probe } } }] });

describe("monitor bodies and the server's environment", () => {
  it("a ${VAR:-default} in a monitor's options is sent as written, never replaced by the server's variable", async () => {
    // With a default, a reference passes any check made without the server's environment.
    const made = await serve.call("POST", "/v2/monitor", { body: monitorBody(`${site.url}/item`, "${SCRAPELINE_SECRET_KEY:-x} ${SCRAPELINE_LLM_API_KEY:-y} $${kept}") });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    const run = await serve.call("POST", `/v2/monitor/${id}/run`);
    const done = await waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks/${run.body.data.id}`), (r) => r.body.data.status !== "running");
    expect(done.body.data.status, JSON.stringify(done.body.data)).toBe("completed");
    expect(asked).toEqual(["/item ${SCRAPELINE_SECRET_KEY:-x} ${SCRAPELINE_LLM_API_KEY:-y} $${kept}"]);
  });

  it("a ${VAR:-default} in a monitor's URL is the URL as written (not a valid one), not the server's variable", async () => {
    const made = await serve.call("POST", "/v2/monitor", { body: monitorBody(`${site.url}/item?k=\${SCRAPELINE_SECRET_KEY:-x}`, "p") });
    expect(made.status).toBe(400);
    expect(made.body.error).toContain("?k=${SCRAPELINE_SECRET_KEY:-x}");
    expect(made.body.error).not.toContain("server-only-key-991");
  });
});
