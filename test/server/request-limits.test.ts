import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type Serve } from "./helpers.js";

/**
 * Limits beyond SPEC.md are kept only where the service documents them or the engine cannot do
 * more, and the error says which; values inside them are accepted.
 */

let serve: Serve;
const url = "http://127.0.0.1:1/";

beforeAll(async () => {
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
});

describe("limits on request values", () => {
  for (const [name, body, reason] of [
    ["waitFor over half of timeout", { url, waitFor: 20_000 }, "the service's limit: waitFor is at most 60000 ms and at most half of timeout"],
    ["waitFor over 60000", { url, waitFor: 70_000, timeout: 200_000 }, "the service's limit: waitFor"],
    ["timeout under 1000", { url, timeout: 500 }, "the service's limit: timeout is at least 1000 ms"],
    ["51 actions", { url, actions: Array.from({ length: 51 }, () => ({ type: "wait", milliseconds: 1 })) }, "the service's limit: at most 50 actions"],
    ["a json prompt over 10000 characters", { url, formats: [{ type: "json", prompt: "x".repeat(10_001) }] }, "the service's limit: prompts are at most 10000 characters"],
    ["a pdf scale over 2", { url, actions: [{ type: "pdf", scale: 3 }] }, "Chromium prints PDFs at a scale of 0.1 to 2"],
  ] as const) {
    it(`${name}: a 400 saying whose limit it is`, async () => {
      const r = await serve.call("POST", "/v2/scrape", { body });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(reason);
    });
  }

  it("an extract prompt over 10000 characters says whose limit it is", async () => {
    const r = await serve.call("POST", "/v1/extract", { body: { urls: ["http://127.0.0.1:1/a"], prompt: "x".repeat(10_001) } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("the service's limit: prompts are at most 10000 characters");
  });

  it("values at the limits are accepted (the page itself is unreachable: not a 400)", async () => {
    for (const body of [
      { url, timeout: 300_000, waitFor: 60_000 },
      { url, timeout: 400_000 },
      { url, timeout: 1000 },
      { url, actions: [...Array.from({ length: 49 }, () => ({ type: "wait", milliseconds: 1 })), { type: "pdf", scale: 2 }] },
      { url, formats: [{ type: "json", prompt: "x".repeat(10_000) }] },
    ]) {
      const r = await serve.call("POST", "/v2/scrape", { body });
      expect(r.status, JSON.stringify(r.body)).not.toBe(400);
    }
  });
});
