import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resumeCommand, resumeWords } from "../../src/cli/resume-hint.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "../run/helpers.js";

const site = new FixtureSite();
beforeAll(async () => {
  for (const n of [1, 2, 3]) site.page(`/${n}`, htmlPage(`Page ${n}`, `<p>Page ${n} of three.</p>`));
  await site.start();
});
afterAll(() => site.stop());

describe("the command that finishes a run", () => {
  it("repeats --var as given, except the values of variables named as secrets", () => {
    const command = resumeCommand(7, resumeWords({ file: "p.yaml", var: ["REGION=eu", "API_KEY=sk-123", "SESSION_COOKIE=abc", "PAGES=3"] }, {}));
    expect(command).toBe("scrapeline run p.yaml --resume 7 --var REGION=eu --var 'API_KEY=…' --var 'SESSION_COOKIE=…' --var PAGES=3");
    expect(command).not.toContain("sk-123");
  });

  it("gives the database SCRAPELINE_DB named as --db, since the shell that follows it may not have it", () => {
    expect(resumeCommand(3, resumeWords({ file: "p.yaml", engine: "firecrawl" }, { SCRAPELINE_DB: "big 3.db" }))).toBe("scrapeline run p.yaml --resume 3 --db 'big 3.db' --engine firecrawl");
    expect(resumeCommand(3, resumeWords({ file: "p.yaml", db: "flag.db" }, { SCRAPELINE_DB: "env.db" }))).toBe("scrapeline run p.yaml --resume 3 --db flag.db");
  });

  it("is printed for a run stopped by its budget, and finishes it once the budget is raised", async () => {
    const dir = workdir();
    const file = join(dir, "p.yaml");
    const db = join(dir, "p.db");
    writeFileSync(file, `version: 1\nname: hint\nconcurrency: 1\nbudget:\n  maxCredits: \${MAX}\nsteps:\n  - id: pages\n    scrape:\n      urls: ["${site.url}/1", "${site.url}/2", "${site.url}/3"]\n`);
    // Asynchronous: the site answers from this process.
    const run = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ["dist/cli/main.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    const stopped = await run("run", file, "--db", db, "--allow-private-network", "--var", "MAX=1");
    expect(stopped.status, stopped.stderr).toBe(3);
    const line = stopped.stderr.split("\n").find((l) => l.includes("stopped at its budget"));
    expect(line).toBe(`run 1 stopped at its budget; raise budget.maxCredits, then finish it: scrapeline run ${file} --resume 1 --db ${db} --var MAX=1 --allow-private-network`);
    // runs and show tell the same command, flags and all, from the run's own record.
    const command = line!.slice(line!.indexOf("scrapeline run "));
    const listed = await run("runs", "--db", db);
    expect(listed.stdout).toContain(`run 1 stopped at its budget; raise budget.maxCredits, then finish it: ${command}\n`);
    const shown = await run("show", "1", "--db", db);
    expect(shown.stdout).toContain(`run 1 stopped at its budget; raise budget.maxCredits, then finish it: ${command}\n`);
    expect(JSON.parse((await run("show", "1", "--db", db, "--json")).stdout).run.resumeWords).toEqual([file, "--db", db, "--var", "MAX=1", "--allow-private-network"]);
    // The printed command with the budget raised finishes the run.
    const finished = await run("run", file, "--resume", "1", "--db", db, "--var", "MAX=10", "--allow-private-network", "--json");
    expect(finished.status, finished.stderr).toBe(0);
    expect(JSON.parse(finished.stdout).status).toBe("succeeded");
  });
});
