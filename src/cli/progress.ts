import type { ExpectationVerdict } from "../core/index.js";
import type { RunEvent } from "../app/light.js";
import type { Io } from "./output.js";

interface StepLine {
  id: string;
  kind: string;
  total?: number;
  done: number;
  failed: number;
  retries: number;
  credits: number;
  /** Credits of documents the engine gave no figure for (computed by the billing rules). */
  estimated: number;
  status: string;
  startedAt: number;
  finishedAt?: number;
  crawl?: { found: number; skippedByRobots: number; skippedByRules: number };
  /** A crawl's frontier as it goes: pages found (at most limit), the limit, pages finished (an earlier attempt's too). */
  frontier?: { found: number; limit: number; done: number };
  error?: string;
  /** Failed only because its expectations broke. */
  cause?: "expectation";
  expectations?: ExpectationVerdict;
}

/** Failed pages the summary lists with their reason; the rest are only counted. */
export const FAILED_PAGES_SHOWN = 100;

/** Per-step counters kept from the event stream; also the source of the summary table. */
export class RunTally {
  readonly steps = new Map<string, StepLine>();
  /** The first FAILED_PAGES_SHOWN pages that failed, with why. */
  readonly failedPages: Array<{ url: string; step: string; error: string }> = [];
  failedPagesTotal = 0;
  /** The first FAILED_PAGES_SHOWN warnings (a step's, or a page's with its URL first). */
  readonly warnings: Array<{ step: string; message: string }> = [];
  warningsTotal = 0;
  runId?: number;
  /** Whether this process continued an earlier attempt (--resume). */
  resumed = false;
  pipeline?: string;
  /** The pipeline file, where expectations' positions point. */
  file?: string;
  /** The pipeline's own expectations, judged when the run ended. */
  expectations?: ExpectationVerdict;
  /** Every failure of the run was a broken expectation. */
  cause?: "expectation";

  constructor(private readonly now: () => number = Date.now) {}

  apply(event: RunEvent): void {
    switch (event.type) {
      case "run-started":
        this.runId = event.runId;
        this.resumed = event.resumed;
        this.pipeline = event.pipeline;
        if (event.file !== undefined) this.file = event.file;
        break;
      case "run-finished":
        if (event.expectations) this.expectations = event.expectations;
        if (event.cause) this.cause = event.cause;
        break;
      case "step-started":
        this.steps.set(event.stepId, { id: event.stepId, kind: event.kind, ...(event.total !== undefined ? { total: event.total } : {}), done: 0, failed: 0, retries: 0, credits: 0, estimated: 0, status: "running", startedAt: this.now() });
        break;
      case "step-skipped":
        this.steps.set(event.stepId, { ...(this.steps.get(event.stepId) ?? { id: event.stepId, kind: "", done: 0, failed: 0, retries: 0, credits: 0, estimated: 0, startedAt: this.now() }), status: "skipped" });
        break;
      case "document-stored": {
        const s = this.steps.get(event.stepId);
        if (s) {
          s.done++;
          s.credits += event.credits;
          if (event.estimated) s.estimated += event.credits;
        }
        break;
      }
      case "document-failed": {
        const s = this.steps.get(event.stepId);
        if (s) s.failed++;
        this.failedPagesTotal++;
        if (this.failedPages.length < FAILED_PAGES_SHOWN) this.failedPages.push({ url: event.url, step: event.stepId, error: event.reason });
        break;
      }
      case "step-progress": {
        const s = this.steps.get(event.stepId);
        if (s) s.frontier = { found: event.found, limit: event.limit, done: event.done };
        break;
      }
      case "step-warning":
        this.warningsTotal++;
        if (this.warnings.length < FAILED_PAGES_SHOWN) this.warnings.push({ step: event.stepId, message: event.message });
        break;
      case "document-retried": {
        const s = this.steps.get(event.stepId);
        if (s) s.retries++;
        break;
      }
      case "step-finished": {
        // A step can end before it started its pages (its session's login failed): it still has its row.
        if (!this.steps.has(event.stepId)) this.steps.set(event.stepId, { id: event.stepId, kind: "", done: 0, failed: 0, retries: 0, credits: 0, estimated: 0, status: "running", startedAt: this.now() });
        const s = this.steps.get(event.stepId);
        if (s) {
          s.status = event.status;
          s.finishedAt = this.now();
          // The store's figure also counts what no page carries (an extract's tokens, a job's extra billing).
          s.credits = Math.max(s.credits, event.credits);
          if (event.crawl) s.crawl = event.crawl;
          if (event.error) s.error = event.error;
          if (event.cause) s.cause = event.cause;
          if (event.expectations) s.expectations = event.expectations;
        }
        break;
      }
      default:
        break;
    }
  }
}

/** One plain line per event, for logs and CI (no cursor movement). */
export function logLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case "run-started":
      return `run ${event.runId} of ${event.pipeline}${event.resumed ? " (resumed)" : ""}`;
    case "step-started":
      return `[${event.stepId}] ${event.kind} started${event.total !== undefined ? `: ${event.total} page(s)` : ""}`;
    case "step-skipped":
      return `[${event.stepId}] skipped: ${event.reason}`;
    case "step-warning":
      return `[${event.stepId}] warning: ${event.message}`;
    case "document-stored":
      return `[${event.stepId}] ${event.statusCode} ${event.url} (${event.credits} credit${event.credits === 1 ? "" : "s"})`;
    case "step-waiting":
      return `[${event.stepId}] waiting ${Math.round(event.waitMs / 1000)} s: ${event.reason}`;
    case "document-retried":
      return `[${event.stepId}] retry ${event.attempt} of ${event.url} in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`;
    case "document-failed":
      return `[${event.stepId}] failed ${event.url}: ${event.reason}`;
    case "step-finished":
      return `[${event.stepId}] ${event.status}: ${event.documents} document(s), ${event.failures} failure(s), ${event.credits} credit(s)${event.crawl ? `; found ${event.crawl.found}, skipped by robots.txt ${event.crawl.skippedByRobots}, skipped by rules ${event.crawl.skippedByRules}` : ""}${event.error ? ` — ${event.error}` : ""}`;
    case "budget-exhausted":
      return `budget reached: ${event.spent} of ${event.limit} credits spent; the next page would need ${event.needed}. No new page starts${(event.inFlight ?? 0) > 0 ? `; ${event.inFlight} page(s) already in flight finish and are stored` : ""}.`;
    case "run-finished":
      return undefined;
  }
}

/** Waits longer than this are told on a terminal too, where progress bars stand for the rest. */
export const NOTED_WAIT_MS = 2000;

/** Whether a line of the log is also shown above the progress bars. */
export function notedOnBars(event: RunEvent): boolean {
  switch (event.type) {
    case "document-failed":
    case "budget-exhausted":
    case "step-skipped":
    case "step-warning":
    case "step-waiting":
    case "run-started":
      return true;
    case "document-retried":
      return event.delayMs > NOTED_WAIT_MS;
    default:
      return false;
  }
}

/** Live per-step bars on a terminal, redrawn in place. */
export class ProgressBars {
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly io: Io,
    private readonly tally: RunTally,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.draw(), 120);
    this.timer.unref();
  }

  /** Prints a message above the bars. */
  note(text: string): void {
    this.clear();
    this.io.stderr(`${text}\n`);
    this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.draw();
  }

  private clear(): void {
    if (this.drawn > 0) this.io.stderr(`\u001b[${this.drawn}A\u001b[0J`);
    this.drawn = 0;
  }

  private draw(): void {
    this.clear();
    const lines = [...this.tally.steps.values()].map((s) => barLine(s, this.now()));
    if (lines.length) this.io.stderr(`${lines.join("\n")}\n`);
    this.drawn = lines.length;
  }
}

const BAR_WIDTH = 24;

/**
 * One step's bar. A crawl fills against the pages found so far (which grow up to its limit) and
 * tells found/limit, its pace and, while it runs, the time left at that pace.
 */
export function barLine(s: StepLine, now: number): string {
  const crawl = s.frontier;
  const done = crawl ? crawl.done : s.done + s.failed;
  const total = crawl ? crawl.found : (s.total ?? 0);
  const running = s.status === "running";
  const filled = total > 0 ? Math.min(BAR_WIDTH, Math.round((BAR_WIDTH * done) / total)) : running ? 0 : BAR_WIDTH;
  const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
  const count = total > 0 ? `${done}/${total}` : `${s.done}`;
  let pace = "";
  if (crawl) {
    const seconds = ((s.finishedAt ?? now) - s.startedAt) / 1000;
    const rate = seconds > 0 ? (s.done + s.failed) / seconds : 0;
    const left = crawl.found - crawl.done;
    pace = `  found ${crawl.found}/${crawl.limit}  ${rate.toFixed(1)} pages/s${running && rate > 0 && left > 0 ? `  ETA ${eta(left / rate)}` : ""}`;
  }
  return `${s.id.padEnd(16)} ${s.kind.padEnd(7)} ${bar} ${count.padStart(9)}${pace}  failed ${s.failed}  credits ${s.credits}  ${running ? "" : s.status}`;
}

/** "42 s", "3 min 5 s", "1 h 12 min". */
function eta(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
