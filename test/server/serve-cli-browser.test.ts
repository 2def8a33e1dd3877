import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** `scrapeline serve --allow-code-execution` as the program users start: /v2/browser and execute through it. */

const site = new FixtureSite();
let dbOwner: Serve;

beforeAll(async () => {
  site.page("/", htmlPage("Start", `<ul id="items"><li>First</li></ul><button id="more" onclick="document.getElementById('items').insertAdjacentHTML('beforeend', '<li>Loaded more</li>')">More</button>`));
  await site.start();
  dbOwner = await startServe({ ops: {} });
  await dbOwner.server.close(); // only its database and key are used: the program serves it
});
afterAll(async () => {
  await dbOwner?.stop();
  await site.stop();
});

describe.skipIf(!existsSync("dist/cli/main.js"))("scrapeline serve with code execution, as a program", () => {
  it("opens a browser session, runs code on its page, holds the code to --code-memory-mb, and closes it", async () => {
    const child = spawn(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", dbOwner.db, "--allow-private-network", "--allow-code-execution", "--code-memory-mb", "40"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const base = (await waitFor(async () => /listening on (\S+)/.exec(stderr)?.[1], (found) => found !== undefined))!;
      expect(stderr).toContain("(code execution allowed)");
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${dbOwner.keys.ops}`, "content-type": "application/json" }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
        return { status: res.status, body: (await res.json()) as any };
      };
      const created = await call("POST", "/v2/browser", { ttl: 120 });
      expect(created.status).toBe(200);
      const id = created.body.id as string;
      const code = `await page.goto(${JSON.stringify(`${site.url}/`)}); await page.click("#more"); console.log(await page.title()); return await page.innerText("#items");`;
      const ran = await call("POST", `/v2/browser/${id}/execute`, { code, language: "node", timeout: 30 });
      expect(ran.status).toBe(200);
      expect(ran.body).toMatchObject({ success: true, exitCode: 0, killed: false, stdout: "Start\n", result: "First\nLoaded more" });
      // The code's process has the heap the command line gave it, not the default 128 MB.
      const hog = await call("POST", `/v2/browser/${id}/execute`, { code: "const keep = []; for (;;) keep.push(new Array(1e6).fill(7));", timeout: 60 });
      expect(hog.body.exitCode).not.toBe(0);
      expect(hog.body.stderr).toContain("ran out of its 40 MB of memory");
      expect((await call("POST", `/v2/browser/${id}/execute`, { code: "return 6 * 7" })).body.result).toBe(42);
      expect((await call("DELETE", `/v2/browser/${id}`)).status).toBe(200);
      expect((await call("POST", `/v2/browser/${id}/execute`, { code: "return 1" })).status).toBe(404);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it.each(["8", "5000", "lots"])("refuses --code-memory-mb %s before starting anything", (value) => {
    const db = join(mkdtempSync(join(tmpdir(), "scrapeline-serve-")), "never.db");
    const r = spawnSync(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", db, "--allow-code-execution", "--code-memory-mb", value], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(existsSync(db)).toBe(false);
    expect(r.stderr).toContain(`--code-memory-mb takes a whole number from 32 to 4096, got "${value}"`);
    expect(r.stderr).not.toContain("listening");
  });

  it("refuses --code-memory-mb without --allow-code-execution, before starting anything", () => {
    const db = join(mkdtempSync(join(tmpdir(), "scrapeline-serve-")), "never.db");
    const r = spawnSync(process.execPath, ["dist/cli/main.js", "serve", "--port", "0", "--db", db, "--code-memory-mb", "64"], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(existsSync(db)).toBe(false);
    expect(r.stderr).toContain("--code-memory-mb limits code runs, which are off without --allow-code-execution");
    expect(r.stderr).not.toContain("listening");
  });
});
