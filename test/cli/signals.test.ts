import Database from "better-sqlite3";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { readDocuments } from "../run/helpers.js";
import { runChild, startCli, waitForStderr } from "./child.js";

/**
 * The shape that once sat at "scrape started" for good: a page scraped in the browser, carried on
 * by an interact step that opens its links in tabs, one of them slow. Each case signals the run
 * at a point its output (or the site) shows, and the run must end with the signal's exit code,
 * interrupted, and `--resume` must finish it as an uninterrupted run would. Each case has pages
 * and a pipeline of its own, so the cases run side by side.
 */
const site = new FixtureSite();
const dir = mkdtempSync(join(tmpdir(), "scrapeline-signals-"));

/** A case's pages (/list-N, /tab-N-a, /tab-N-b, /tab-N-slow); requests for its slow tab wait while `hold` is set, until `release`. */
class CasePages {
  hold = false;
  private held: Array<() => void> = [];
  onSlowTab: () => void = () => undefined;
  readonly file: string;

  constructor(readonly n: number) {
    site.page(`/list-${n}`, htmlPage("List", `<ul>${["a", "b", "slow"].map((t) => `<li><a class="tab" href="/tab-${n}-${t}">Tab ${t}</a></li>`).join("")}</ul>`));
    for (const t of ["a", "b"]) site.page(`/tab-${n}-${t}`, htmlPage(`Tab ${t}`, `<p>The ${t} tab</p>`));
    site.route(`/tab-${n}-slow`, (_req, res) => {
      const answer = () => void res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Tab slow", "<p>The slow tab</p>"));
      this.onSlowTab();
      if (this.hold) this.held.push(answer);
      else answer();
    });
    this.file = join(dir, `tabs-${n}.yaml`);
  }

  /** Written once the site listens (its URL is in the pipeline). */
  writePipeline(): void {
    writeFileSync(
      this.file,
      `version: 1\nname: tabs\nallowPrivateNetwork: true\nretry: { attempts: 1 }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/list-${this.n}", timeout: 120000, actions: [{ type: wait, milliseconds: 1 }] }\n` +
        `  - id: tabs\n    interact: { from: page, actions: [{ type: scroll, direction: down }], tabs: { selector: "a.tab" } }\n`,
    );
  }

  release(): void {
    this.hold = false;
    for (const answer of this.held.splice(0)) answer();
  }

  /** What an uninterrupted run stores, as `step url`. */
  uninterrupted(): string[] {
    const url = (path: string) => `${site.url}/${path}`;
    return [`page ${url(`list-${this.n}`)}`, `tabs ${url(`list-${this.n}`)}`, ...["a", "b", "slow"].map((t) => `tabs ${url(`tab-${this.n}-${t}`)}`)].sort();
  }
}

type Signal = "SIGINT" | "SIGTERM";
interface Case {
  /** What the run shows before the signals are sent: a line of its output, or the slow tab being asked for. */
  at: RegExp | "slow-tab";
  signals: Signal[];
}

/** After the first signal, every later one is of one kind: whichever of them ends the process, its code is known. */
const CASES: Case[] = [
  { at: /\[page\] scrape started/, signals: ["SIGTERM"] },
  { at: /\[page\] scrape started/, signals: ["SIGTERM", "SIGTERM"] },
  { at: /\[page\] scrape started/, signals: ["SIGINT", "SIGINT", "SIGINT"] },
  { at: /\[page\] 200 /, signals: ["SIGTERM"] },
  { at: /\[page\] 200 /, signals: ["SIGINT", "SIGINT"] },
  { at: /\[tabs\] interact started/, signals: ["SIGINT"] },
  { at: "slow-tab", signals: ["SIGTERM"] },
  { at: "slow-tab", signals: ["SIGINT", "SIGTERM"] },
  { at: "slow-tab", signals: ["SIGTERM", "SIGINT", "SIGINT"] },
  { at: /\[tabs\] 200 /, signals: ["SIGINT", "SIGINT"] },
];
const pages = CASES.map((_, i) => new CasePages(i));

beforeAll(async () => {
  await site.start();
  for (const p of pages) p.writePipeline();
});
afterAll(async () => {
  for (const p of pages) p.release();
  await site.stop();
});

const exitCode = (signal: Signal) => (signal === "SIGINT" ? 130 : 143);
const storedUrls = (db: string, runId: number) =>
  ["page", "tabs"].flatMap((step) => readDocuments(db, runId, step).map((d) => `${step} ${d.url}`)).sort();

function runsOf(db: string): Array<{ id: number; status: string }> {
  const sqlite = new Database(db, { readonly: true });
  try {
    expect(sqlite.pragma("quick_check", { simple: true })).toBe("ok");
    return sqlite.prepare("SELECT id, status FROM runs ORDER BY id").all() as Array<{ id: number; status: string }>;
  } finally {
    sqlite.close();
  }
}

describe.concurrent("a browser run with tabs, stopped by signals at any point", () => {
  it.for(CASES.map((c, i) => ({ ...c, i, name: `${c.signals.join(", ")} at ${c.at}` })))("$name: exits with the signal's code, and --resume finishes it", { timeout: 180_000 }, async ({ at, signals, i }, { expect }) => {
    const own = pages[i]!;
    const db = join(dir, `run-${i}.db`);
    own.hold = at === "slow-tab";
    const slowTabAsked = new Promise<void>((resolve) => (own.onSlowTab = resolve));
    // Signals while Chromium starts meet a browser of the run's own; the others, the suite's shared one.
    const started = startCli(["run", own.file, "--db", db], /scrape started/.test(String(at)) ? { env: { SCRAPELINE_BROWSER_ENDPOINT: "" } } : {});
    const { child } = started;
    /** Resolves once stderr matches `pattern` (checked at each chunk the child writes). */
    const shown = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if (!pattern.test(started.stderrSoFar())) return;
          child.stderr!.off("data", look);
          resolve();
        };
        child.stderr!.on("data", look);
        child.once("exit", () => reject(new Error(`the run ended before showing ${pattern}:\n${started.stderrSoFar()}`)));
        look();
      });
    const endedEarly = new Promise<never>((_, reject) => child.once("exit", () => reject(new Error(`the run ended before the slow tab was asked for:\n${started.stderrSoFar()}`))));
    endedEarly.catch(() => undefined);
    await (at === "slow-tab" ? Promise.race([slowTabAsked, endedEarly]) : shown(at));
    child.kill(signals[0]!);
    await shown(/stopping: /);
    // The second signal once the first is taken (its line), a third once the second is.
    if (signals[1]) child.kill(signals[1]);
    if (signals[2]) {
      await shown(/aborting pages in flight/);
      child.kill(signals[2]);
    }
    // One signal lets pages in flight finish: the slow tab answers now.
    if (signals.length === 1) own.release();
    const stopped = await started.done;
    own.release();
    const [run] = runsOf(db);
    // A run whose work was all done when the signal came has nothing left; otherwise it is interrupted and resumable.
    expect(["interrupted", "succeeded"]).toContain(run!.status);
    const code = run!.status === "succeeded" ? 0 : exitCode(signals.at(-1)!);
    expect({ code: stopped.code, signal: stopped.signal, internal: /internal error/.test(stopped.stderr) }, stopped.stderr).toEqual({ code, signal: null, internal: false });
    // The command that finishes it (or, when a third signal or the 10 s after the second ended the process at once, the way to).
    const exitedNow = signals.length === 3 || /did not end within 10 s of the abort: exiting now/.test(stopped.stderr);
    if (run!.status === "interrupted") expect(stopped.stderr, stopped.stderr).toContain(exitedNow ? "run --resume finishes the run" : `--resume ${run!.id}`);

    const resumed = await runChild(["run", own.file, "--db", db, "--resume"]);
    if (run!.status === "interrupted") expect(resumed.code, resumed.stderr).toBe(0);
    expect(runsOf(db)).toEqual([{ id: run!.id, status: "succeeded" }]);
    expect(storedUrls(db, run!.id)).toEqual(own.uninterrupted());
  });
});

describe("work that does not end when aborted", () => {
  it("a run whose notification hangs exits 10 s after the second signal, with the second signal's code", async () => {
    let asked: () => void = () => undefined;
    const notifying = new Promise<void>((resolve) => (asked = resolve));
    // A receiver that takes the request and never answers.
    site.route("/hook", () => asked());
    const notified = join(dir, "notify.yaml");
    writeFileSync(notified, `version: 1\nname: told\nallowPrivateNetwork: true\nnotify: { webhook: { url: "${site.url}/hook" }, on: [new] }\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/tab-0-a", formats: [markdown, changeTracking] }\n`);
    const started = startCli(["run", notified, "--db", join(dir, "notify.db")]);
    await notifying;
    started.child.kill("SIGINT");
    // The second once the first is taken: two signals pending at once may be taken in either order.
    await waitForStderr(started, /stopping: /);
    started.child.kill("SIGTERM");
    const stopped = await started.done;
    expect(stopped.code, stopped.stderr).toBe(143);
    expect(stopped.stderr).toContain("did not end within 10 s of the abort: exiting now");
    expect(stopped.stderr).not.toContain("internal error");
  }, 180_000);
});
