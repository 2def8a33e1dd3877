import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../helpers/site.js";
import { pipeline, runYaml } from "../run/helpers.js";

// A redirect loop, or a chain longer than 20 hops, answers the same way every time: the page
// fails at its first attempt instead of being fetched again.

const site = new FixtureSite();

beforeAll(async () => {
  site.route("/loop-a", (_req, res) => void res.writeHead(302, { location: "/loop-b" }).end());
  site.route("/loop-b", (_req, res) => void res.writeHead(302, { location: "/loop-a" }).end());
  for (let i = 0; i <= 25; i++) site.route(`/hop/${i}`, (_req, res) => void res.writeHead(301, { location: `/hop/${i + 1}` }).end());
  site.route("/flaky", (_req, res, hits) => void (hits === 1 ? res.writeHead(503).end("busy") : res.writeHead(200, { "content-type": "text/html" }).end("<p>ok</p>")));
  await site.start();
});
afterAll(() => site.stop());

const scrape = (path: string) => pipeline(`  - id: s\n    scrape: { url: "${site.url}${path}" }\n`);

describe("redirect failures are not retried", () => {
  it("fails a redirect loop at its first attempt, naming the chain", async () => {
    site.hits.clear();
    const { result, events } = await runYaml(scrape("/loop-a"));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("failed");
    expect(site.hits.get("/loop-a")).toBe(1);
    expect(site.hits.get("/loop-b")).toBe(1);
    expect(events.filter((e) => e.type === "document-retried")).toEqual([]);
    const failed = events.find((e) => e.type === "document-failed");
    expect(failed).toMatchObject({ reason: expect.stringContaining(`redirect loop: ${site.url}/loop-a → ${site.url}/loop-b → ${site.url}/loop-a`) });
  });

  it("fails a chain of more than 20 redirects at its first attempt", async () => {
    site.hits.clear();
    const { result, events } = await runYaml(scrape("/hop/0"));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("failed");
    expect(site.hits.get("/hop/0")).toBe(1);
    expect(site.hits.get("/hop/20")).toBe(1);
    expect(events.filter((e) => e.type === "document-retried")).toEqual([]);
    expect(events.find((e) => e.type === "document-failed")).toMatchObject({ reason: expect.stringContaining("more than 20 redirects") });
  });

  it("still retries a 503", async () => {
    site.hits.clear();
    const { result } = await runYaml(scrape("/flaky"));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(site.hits.get("/flaky")).toBe(2);
  });
});
