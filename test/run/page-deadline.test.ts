import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../helpers/site.js";
import { pipeline, runYaml } from "./helpers.js";

/** A page's `timeout` is its overall deadline: its attempts and the backoff between them share it. */
const site = new FixtureSite();

beforeAll(async () => {
  // Headers and half a page, then nothing: each attempt runs until its deadline.
  site.route("/hangs", (_req, res) => {
    res.writeHead(200, { "content-type": "text/html", "content-length": "1000" });
    res.write("<html><body><p>half a page");
  });
  // Fails fast twice, then answers: retries within the deadline still happen.
  site.route("/flaky", (_req, res, n) => {
    if (n <= 2) res.writeHead(503).end("busy");
    else res.writeHead(200, { "content-type": "text/html" }).end("<html><body><p>Finally here.</p></body></html>");
  });
  await site.start();
});
afterAll(() => site.stop());

const scrape = (path: string, timeout: number) => `  - id: page\n    scrape: { url: "${site.url}${path}", formats: [markdown], timeout: ${timeout} }\n`;

describe("a page's timeout", () => {
  it("is shared by its attempts: a page that hangs is tried once when the first attempt spends the whole deadline", async () => {
    const { result, events } = await runYaml(pipeline(scrape("/hangs", 1000)));
    expect(result.ok && result.status).toBe("failed");
    expect(site.hits.get("/hangs")).toBe(1);
    const failed = events.find((e) => e.type === "document-failed");
    expect(failed && failed.type === "document-failed" && failed.reason).toMatch(/timeout of 1000 ms leaves no time for another/);
  });

  it("still lets quick failures be retried while time is left", async () => {
    const { result } = await runYaml(pipeline(scrape("/flaky", 5000)));
    expect(result.ok && result.status).toBe("succeeded");
    expect(site.hits.get("/flaky")).toBe(3);
  });
});
