import { describe, expect, it } from "vitest";
import { ProgressBars, RunTally } from "../../src/cli/progress.js";
import { summaryJson, summaryTable } from "../../src/cli/summary.js";

describe("run summary", () => {
  it("splits credits the service billed from those the billing rules estimated", () => {
    const tally = new RunTally(() => 0);
    tally.apply({ type: "run-started", runId: 7, pipeline: "p", resumed: false });
    tally.apply({ type: "step-started", stepId: "a", kind: "scrape", total: 3 });
    tally.apply({ type: "document-stored", stepId: "a", url: "https://x/1", statusCode: 200, credits: 5 });
    tally.apply({ type: "document-stored", stepId: "a", url: "https://x/2", statusCode: 200, credits: 1, estimated: true });
    tally.apply({ type: "document-stored", stepId: "a", url: "https://x/3", statusCode: 200, credits: 1, estimated: true });
    tally.apply({ type: "step-finished", stepId: "a", status: "succeeded", documents: 3, failures: 0, credits: 7 });
    expect(summaryTable(tally, "succeeded", 7)).toMatch(/run 7 succeeded: 7 credits used \(5 as billed by the service, 2 estimated by the billing rules where it gave no figure\)/);
    expect(JSON.parse(summaryJson(tally, "succeeded", 7)).steps[0]).toMatchObject({ credits: 7, estimatedCredits: 2 });
  });

  it("counts credits no page carries, such as an extract's tokens, in its step's row", () => {
    const tally = new RunTally(() => 0);
    tally.apply({ type: "step-started", stepId: "x", kind: "extract", total: 2 });
    tally.apply({ type: "document-stored", stepId: "x", url: "https://x/1", statusCode: 200, credits: 1 });
    tally.apply({ type: "document-stored", stepId: "x", url: "https://x/2", statusCode: 200, credits: 1 });
    tally.apply({ type: "step-finished", stepId: "x", status: "succeeded", documents: 2, failures: 0, credits: 16 });
    const row = summaryTable(tally, "succeeded", 16).split("\n").find((l) => l.startsWith("x "))!;
    expect(row.split(/\s+/)).toEqual(["x", "succeeded", "2", "0", "0", "16", "-"]);
    expect(summaryTable(tally, "succeeded", 16)).not.toMatch(/estimated/);
  });
  it("has a row for a step that failed before it started its pages (a session whose login failed)", () => {
    const tally = new RunTally(() => 0);
    tally.apply({ type: "run-started", runId: 3, pipeline: "p", resumed: false });
    tally.apply({ type: "step-finished", stepId: "orders", status: "failed", documents: 0, failures: 0, credits: 0, error: 'session "shop": login failed' });
    const row = summaryTable(tally, "failed", 0).split("\n").find((l) => l.startsWith("orders "));
    expect(row?.split(/\s+/)).toEqual(["orders", "failed", "0", "0", "0", "0", "-"]);
    expect(JSON.parse(summaryJson(tally, "failed", 0)).steps).toEqual([{ id: "orders", status: "failed", documents: 0, failed: 0, retries: 0, credits: 0, error: 'session "shop": login failed' }]);
  });
});

describe("a resumed run's summary", () => {
  it("counts the run's documents, as runs does, and says what this process stored", () => {
    const tally = new RunTally(() => 0);
    tally.apply({ type: "run-started", runId: 4, pipeline: "p", resumed: true });
    tally.apply({ type: "step-skipped", stepId: "home", reason: "already finished in run 4" });
    tally.apply({ type: "step-started", stepId: "docs", kind: "crawl" });
    for (let n = 1; n <= 25; n++) tally.apply({ type: "document-stored", stepId: "docs", url: `https://x/${n}`, statusCode: 200, credits: 1 });
    tally.apply({ type: "step-finished", stepId: "docs", status: "succeeded", documents: 25, failures: 0, credits: 120, crawl: { found: 120, skippedByRobots: 0, skippedByRules: 0 } });
    const text = summaryTable(tally, "succeeded", 121, { home: 1, docs: 120 });
    expect(text.split("\n").find((l) => l.startsWith("docs "))!.split(/\s+/).slice(0, 3)).toEqual(["docs", "succeeded", "120"]);
    expect(text.split("\n").find((l) => l.startsWith("home "))!.split(/\s+/).slice(0, 3)).toEqual(["home", "skipped", "1"]);
    expect(text).toContain("docs: found 120, crawled 120,");
    expect(text).toContain("run 4 (resumed): 121 document(s) in all, 25 stored by this process\n");
  });
});

describe("progress bars", () => {
  it("a crawl fills against the pages found so far and tells found/limit, its pace and the time left", () => {
    let now = 0;
    const tally = new RunTally(() => now);
    tally.apply({ type: "step-started", stepId: "docs", kind: "crawl" });
    tally.apply({ type: "step-progress", stepId: "docs", found: 1, limit: 500, done: 0 });
    for (let n = 1; n <= 32; n++) tally.apply({ type: "document-stored", stepId: "docs", url: `https://x/${n}`, statusCode: 200, credits: 1 });
    tally.apply({ type: "step-progress", stepId: "docs", found: 64, limit: 500, done: 32 });
    now = 8000;
    let err = "";
    const bars = new ProgressBars({ stdout: () => {}, stderr: (t: string) => (err += t), isTTY: true, color: false } as never, tally, () => now);
    bars.stop();
    expect(err).toContain(`${"█".repeat(12)}${"░".repeat(12)} ${"32/64".padStart(9)}  found 64/500  4.0 pages/s  ETA 8 s  failed 0  credits 32`);
  });


  it("a step that stores more pages than it announced (tabs, found as it goes) fills its bar and no more", () => {
    const tally = new RunTally(() => 0);
    tally.apply({ type: "step-started", stepId: "s", kind: "interact", total: 1 });
    for (const n of [1, 2, 3]) tally.apply({ type: "document-stored", stepId: "s", url: `https://x/${n}`, statusCode: 200, credits: 1 });
    let err = "";
    const bars = new ProgressBars({ stdout: () => {}, stderr: (t: string) => (err += t), isTTY: true, color: false } as never, tally);
    bars.stop();
    expect(err).toContain(`${"█".repeat(24)} ${"3/1".padStart(9)}`);
  });
});
