import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as undici from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../../src/engines/local/fetch/undici-parts.js";
import { startHttpServer, type TestServer } from "./servers.js";

describe("undici parts", () => {
  it("are the package's own Agent and request", () => {
    const require = createRequire(import.meta.url);
    expect(Agent).toBe(undici.Agent);
    expect(require("undici/lib/api/api-request.js")).toBe(undici.Dispatcher.prototype.request);
  });
});

describe.skipIf(!existsSync("dist/cli/main.js"))("a run that fetches", () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startHttpServer((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Loaded page</h1></body></html>"));
    dir = mkdtempSync(join(tmpdir(), "scrapeline-undici-"));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fetches without loading undici's index", async () => {
    const pipeline = join(dir, "page.yaml");
    writeFileSync(pipeline, `version: 1\nname: page\nsteps:\n  - id: page\n    scrape:\n      url: ${server.url("/")}\n      formats: [markdown]\n`);
    // Reports, as the process exits, whether any module loaded undici's index.
    const probe = join(dir, "probe.cjs");
    writeFileSync(probe, `process.on("exit", () => process.stderr.write("undici index loaded: " + Object.keys(require("node:module")._cache).some((f) => f.endsWith("/undici/index.js")) + "\\n"));\n`);
    // Not spawnSync: the page is served from this process.
    const child = spawn(process.execPath, ["--require", probe, "dist/cli/main.js", "run", pipeline, "--db", join(dir, "page.db"), "--allow-private-network", "--json"], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    const [code] = await once(child, "close");
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: "succeeded", steps: [{ documents: 1 }] });
    expect(stderr).toContain("undici index loaded: false");
  });
});
