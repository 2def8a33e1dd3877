import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type Serve } from "../server/helpers.js";

// `usage` and `crawl-preview --engine firecrawl` of the built program, against scrapeline serve.
let serve: Serve;
beforeAll(async () => {
  serve = await startServe({ cli: { planTokens: 3000 } });
});
afterAll(async () => serve?.stop());

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/cli/main.js", ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!existsSync("dist/cli/main.js"))("commands that reach the service", () => {
  it("usage shows the remaining tokens and the credits they are worth", async () => {
    const r = await cli(["usage", "--api-url", serve.server.url], { FIRECRAWL_API_KEY: serve.keys.cli! });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 3000 of 3000 tokens left = 200 credits \(15 tokens per credit\) \(billing period \d{4}-/);
    const json = await cli(["usage", "--api-url", serve.server.url, "--json"], { FIRECRAWL_API_KEY: serve.keys.cli! });
    expect(JSON.parse(json.stdout)).toMatchObject({ remainingTokens: 3000, planTokens: 3000, remainingCredits: 200, source: "v2" });
  });

  it("usage without a key says which variable to set, and a rejected key says so without printing it", async () => {
    const missing = await cli(["usage", "--api-url", serve.server.url], {});
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/FIRECRAWL_API_KEY is not set/);
    const wrong = await cli(["usage", "--api-url", serve.server.url], { FIRECRAWL_API_KEY: "fc-wrong-secret-123" });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/rejected the API key \(HTTP 401\)/);
    expect(wrong.stderr + wrong.stdout).not.toContain("fc-wrong-secret-123");
  });

  it("crawl-preview --engine firecrawl asks the service's params-preview", async () => {
    const r = await cli(["crawl-preview", "https://example.com", "only blog posts, at most 50 pages", "--engine", "firecrawl"], { FIRECRAWL_API_KEY: serve.keys.cli!, FIRECRAWL_API_URL: serve.server.url });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { url: "https://example.com/", limit: 50 } });
  });
});
