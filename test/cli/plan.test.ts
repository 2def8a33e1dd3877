import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "./child.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-plan-"));
const file = join(dir, "vars.yaml");
writeFileSync(file, 'version: 1\nname: v\nconcurrency: ${PLAN_CONC}\nsteps:\n  - id: a\n    timeoutMs: ${PLAN_TIMEOUT}\n    scrape:\n      url: "https://example.com/${PLAN_PAGE}"\n');

describe("scrapeline plan with variables", () => {
  it("takes --var as run does", async () => {
    const r = await cliInProcess(["plan", file, "--format", "json", "--var", "PLAN_CONC=4", "--var", "PLAN_TIMEOUT=5000", "--var", "PLAN_PAGE=pricing"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).steps[0].body.urls).toEqual(["https://example.com/${PLAN_PAGE}"]);
  });

  it("shows a number read from a variable as its reference, like a string", async () => {
    const r = await cliInProcess(["plan", file, "--var", "PLAN_CONC=4", "--var", "PLAN_TIMEOUT=5000", "--var", "PLAN_PAGE=pricing"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("\nconcurrency: ${PLAN_CONC}\n");
    expect(r.stdout).toContain("    timeoutMs: ${PLAN_TIMEOUT}\n");
    expect(r.stdout).not.toMatch(/concurrency: 4|timeoutMs: 5000/);
  });

  it("refuses a --var that is not KEY=VALUE before loading the file", async () => {
    const r = await cliInProcess(["plan", join(dir, "missing.yaml"), "--var", "PLAN_CONC"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--var takes KEY=VALUE, got "PLAN_CONC"');
    expect(r.stderr).not.toContain("missing.yaml");
  });

  it("leaves out the budget when none is set, and shows one that is", async () => {
    const plain = join(dir, "plain.yaml");
    writeFileSync(plain, "version: 1\nname: n\nsteps:\n  - id: a\n    scrape: { url: https://example.com }\n");
    const none = await cliInProcess(["plan", plain]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("allowPrivateNetwork: false");
    expect(none.stdout).not.toContain("budget");
    const budgeted = join(dir, "budget.yaml");
    writeFileSync(budgeted, "version: 1\nname: b\nbudget: { maxCredits: 10 }\nsteps:\n  - id: a\n    scrape: { url: https://example.com }\n");
    expect((await cliInProcess(["plan", budgeted])).stdout).toContain("budget:\n  maxCredits: 10\n");
  });
});
