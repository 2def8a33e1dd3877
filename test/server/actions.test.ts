import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

/** A page action that fails is the request's failure, named as the pipeline names it. */

let serve: Serve;
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/form", htmlPage("Form", '<button id="go">Go</button>'));
  await site.start();
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site.stop();
});

describe("failed actions", () => {
  it("a click whose selector matches nothing is a 400 SCRAPE_ACTION_ERROR naming the action", async () => {
    const r = await serve.call("POST", "/v2/scrape", {
      body: { url: `${site.url}/form`, timeout: 30000, actions: [{ type: "click", selector: "#go" }, { type: "click", selector: "#x" }, { type: "scrape" }] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "SCRAPE_ACTION_ERROR" });
    expect(r.body.error).toMatch(/^action 2 of 3 \(click "#x"\) failed: /);
  });

  it("click with all: true matches nothing without an error (SPEC.md)", async () => {
    const r = await serve.call("POST", "/v2/scrape", { body: { url: `${site.url}/form`, timeout: 5000, actions: [{ type: "click", selector: "#x", all: true }] } });
    expect(r.status).toBe(200);
  });
});
