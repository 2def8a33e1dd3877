// `npm run demo`, end to end: the script serves the bundled site, runs pipelines/demo.yaml with the
// built CLI, and with --twice changes a book page and shows the change on the second run.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain ES module script without type declarations
import { DEFAULT_PORT, EDIT } from "../../scripts/demo-site.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEMO = join(ROOT, "scripts/demo.mjs");

function demo(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DEMO, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

function changes(db: string, run: string) {
  const r = spawnSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "changes", "--db", db, "--run", run, "--json"], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { counts: Record<string, number>; pages: { url: string; changeStatus: string; diff?: string }[] };
}

describe("npm run demo", () => {
  it("--twice runs the demo, changes a book page, runs again and reports that page changed", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "scrapeline-demo-")), "demo.db");
    const { code, output } = await demo(["--port", "0", "--twice", "--db", db]);
    expect(code, output).toBe(0);
    const url = /demo site at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    expect(output).toContain("run 2 succeeded");
    // the changes command's report, printed by the script
    expect(output).toContain("run 2: 6 tracked page(s): 1 changed, 0 new, 0 removed, 0 hidden, 5 same");
    expect(output).toContain(`changed  ${url}${EDIT.path} [books]`);
    expect(output).toContain("+Price: £12.00 · In stock");

    expect(changes(db, "1").counts).toMatchObject({ new: 6, changed: 0 });
    const second = changes(db, "2");
    expect(second.counts).toMatchObject({ new: 0, same: 5, changed: 1 });
    expect(second.pages.filter((p) => p.changeStatus === "changed").map((p) => p.url)).toEqual([`${url}${EDIT.path}`]);
  });

  it("serves on the port the demo pipeline's URLs default to, so they stay the same from run to run", () => {
    const pipeline = parse(readFileSync(join(ROOT, "pipelines/demo.yaml"), "utf8")) as { steps: { scrape?: { url?: string } }[] };
    const urls = pipeline.steps.map((step) => step.scrape?.url).filter((u): u is string => !!u);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toContain(`:-http://127.0.0.1:${DEFAULT_PORT}}`);
  });

  it("says which port is taken and how to choose another", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const { code, output } = await demo([], { SCRAPELINE_DEMO_PORT: String(port) });
      expect(code).toBe(2);
      expect(output).toContain(`demo: port ${port} is in use; pick another with npm run demo -- --port N (or SCRAPELINE_DEMO_PORT=N)`);
    } finally {
      busy.close();
    }
  });

  it("refuses a port that is not a number", async () => {
    const { code, output } = await demo(["--port", "web"]);
    expect(code).toBe(2);
    expect(output).toContain("demo: --port must be a port number (0 for a free port), not web");
  });
});
