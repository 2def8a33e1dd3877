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
    const lines = [...this.tally.steps.values()].map((s) => {
      const width = 24;
      const total = s.total ?? 0;
      const filled = total > 0 ? Math.min(width, Math.round((width * (s.done + s.failed)) / total)) : s.status === "running" ? 0 : width;
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      const count = total > 0 ? `${s.done + s.failed}/${total}` : `${s.done}`;
      return `${s.id.padEnd(16)} ${s.kind.padEnd(7)} ${bar} ${count.padStart(9)}  failed ${s.failed}  credits ${s.credits}  ${s.status === "running" ? "" : s.status}`;
    });
    if (lines.length) this.io.stderr(`${lines.join("\n")}\n`);
    this.drawn = lines.length;
  }
}
