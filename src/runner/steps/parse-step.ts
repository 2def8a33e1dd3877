import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ChangeTrackingFormat, Document, ErrorKind, ParseInput, Step } from "../../core/index.js";
import { isScrapelineError, ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { expandFiles, type FileMatch } from "./file-globs.js";
import { forEngine, trackChange, type StepTally } from "../page.js";
import { PageDeadline } from "../page-deadline.js";
import { backoffMs, classify } from "../retry.js";

type ParseStep = Extract<Step, { kind: "parse" }>;

/** Work-pool host of local files: their reads and conversions share the run's limits like one site's pages. */
const FILES_HOST = "files";

/**
 * Parses every file of a parse step (paths and globs relative to the pipeline file) through the
 * run's pool: each file read (its size checked first), converted by the engine, compared with its
 * previous snapshot when the step tracks changes, billed and stored under its file: URL with
 * metadata.sourceFile. A file that cannot be read or converted fails alone; a glob that matches
 * nothing is a step warning.
 */
export async function runParseStep(ctx: RunContext, step: ParseStep, timeout: AbortSignal): Promise<StepTally> {
  const engine = ctx.ports.engine;
  if (!engine.parse) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run parse steps`);
  const base = dirname(resolve(ctx.plan.pipeline.file));
  const { files, unmatched } = expandFiles(step.body.files, base, step.body.allowOutside);
  for (const pattern of unmatched) ctx.emit({ type: "step-warning", stepId: step.id, message: `files: ${pattern} matches no file` });
  const done = ctx.ports.store.storedUrls(ctx.runId, step.id);
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: files.length });
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  const signal = AbortSignal.any([timeout, ctx.abort]);
  await Promise.all(files.filter((f) => !done.has(urlOf(f))).map((file) => parseOne(ctx, step, file, signal, tally)));
  return tally;
}

function urlOf(file: FileMatch): string {
  return pathToFileURL(file.path).href;
}

async function parseOne(ctx: RunContext, step: ParseStep, file: FileMatch, signal: AbortSignal, tally: StepTally): Promise<void> {
  const url = urlOf(file);
  const options = step.body;
  // `timeout` is the file's whole deadline, as a page's: attempts and the waits between them spend it.
  const deadline = new PageDeadline(options.timeout);
  for (let attempt = 1; ; attempt++) {
    if (ctx.stop.aborted || signal.aborted) {
      tally.cancelled = true;
      return;
    }
    const estimate = ctx.ports.credits.estimatePage(options);
    try {
      const event = await ctx.pool.run(FILES_HOST, async () => {
        if (!ctx.budget.reserve(estimate)) {
          if (!ctx.stop.aborted) {
            ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: estimate, inFlight: Math.max(0, ctx.pool.running - 1) });
            ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
          }
          throw new ScrapelineError("budget", "budget exhausted");
        }
        try {
          const input = await readInput(file, url, options.maxFileSize);
          // The service does not track changes on parse (it refuses the format): files are always compared here.
          const tracking = options.formats.find((f): f is ChangeTrackingFormat => f.type === "changeTracking");
          const shaped = deadline.shape(options, ctx.clock()) as typeof options;
          const document: Document = await ctx.ports.engine.parse!(input, tracking ? { ...shaped, ...forEngine(shaped, tracking) } : shaped, signal);
          document.metadata.sourceFile = file.name;
          const snapshot = tracking ? trackChange(ctx, url, document, tracking, "visible") : undefined;
          if (tracking && !options.formats.some((f) => f.type === "json")) delete document.json;
          const reported = document.metadata.creditsUsed;
          const credits = ctx.ports.engine.reportsCredits && typeof reported === "number" ? reported : ctx.ports.credits.forDocument(document, options);
          document.metadata.creditsUsed = credits;
          await ctx.ports.store.saveDocument({ runId: ctx.runId, stepId: step.id, url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed: credits, document }, snapshot);
          ctx.budget.settle(estimate, credits);
          return { type: "document-stored" as const, stepId: step.id, url, statusCode: 200, credits, ...(document.warning ? { warning: document.warning } : {}) };
        } catch (error) {
          ctx.budget.settle(estimate, 0);
          throw error;
        }
      });
      tally.documents++;
      ctx.emit(event);
      return;
    } catch (error) {
      if (isScrapelineError(error, "budget") || isScrapelineError(error, "cancelled") || (signal.aborted && !isScrapelineError(error))) {
        tally.cancelled = true;
        return;
      }
      const verdict = classify(error);
      // Only a remote engine's failures (network, a busy service) are worth another attempt; a file converts the same way twice.
      const delayMs = verdict.action === "wait" && verdict.waitMs >= 0 ? verdict.waitMs : backoffMs(step.retry, attempt, ctx.random);
      // A local conversion that ran out of time has spent the deadline: it is not tried again.
      if (verdict.action !== "fail" && attempt < step.retry.attempts && deadline.allowsRetryAt(ctx.clock() + delayMs)) {
        ctx.emit({ type: "document-retried", stepId: step.id, url, attempt, delayMs, reason: verdict.reason });
        await new Promise((done) => setTimeout(done, delayMs));
        continue;
      }
      const kind: ErrorKind | "unknown" = isScrapelineError(error) ? error.kind : "unknown";
      tally.failures++;
      ctx.ports.store.saveFailure({ runId: ctx.runId, stepId: step.id, url, kind, error: verdict.reason });
      ctx.emit({ type: "document-failed", stepId: step.id, url, kind, reason: verdict.reason });
      return;
    }
  }
}

/** The file's bytes, refused before reading when it is larger than the step allows. */
async function readInput(file: FileMatch, url: string, maxBytes: number): Promise<ParseInput> {
  let info;
  try {
    info = await stat(file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScrapelineError(code === "ENOENT" ? "not-found" : "bad-content", code === "ENOENT" ? `${file.name}: no such file` : `${file.name} cannot be read (${(error as Error).message})`);
  }
  if (!info.isFile()) throw new ScrapelineError("bad-content", `${file.name} is not a file`);
  if (info.size > maxBytes) throw new ScrapelineError("too-large", `${file.name} is ${Math.ceil(info.size / 1048576)} MB, over the limit of ${Math.floor(maxBytes / 1048576)} MB (maxFileSize)`);
  const bytes = await readFile(file.path);
  return { name: file.name, bytes, url, modifiedTime: info.mtime.toISOString() };
}
