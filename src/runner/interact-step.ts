import type { ScrapeOptions, Step } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import type { RunContext } from "./context.js";
import { runPage, type PageJob, type StepTally } from "./page.js";
import { pipelineScrapeId } from "./scrape-id.js";

type InteractStep = Extract<Step, { kind: "interact" }>;
type ScrapeStep = Extract<Step, { kind: "scrape" }>;

/**
 * An interact step: every page the `from` scrape stored in this run is opened again in the
 * browser as that scrape left it (its URL, session, waitFor and actions), the step's actions
 * run on it, and the page they leave is stored under the scrape's URL, with what each `scrape`
 * action captured on the way in its `actions.scrapes`.
 */
export async function runInteractStep(ctx: RunContext, step: InteractStep, timeout: AbortSignal): Promise<StepTally> {
  const from = ctx.plan.pipeline.steps.find((s): s is ScrapeStep => s.id === step.body.from && s.kind === "scrape");
  if (!from) throw new ScrapelineError("invalid-input", `interact step "${step.id}" carries on from "${step.body.from}", which is not a scrape step of this pipeline`);
  const urls = pickPages(ctx, step, from);
  const done = ctx.ports.store.storedUrls(ctx.runId, step.id);
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: urls.length });
  const options = interactOptions(from.body, step.body.actions);
  const session = step.session ?? from.session;
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  const job = (url: string): PageJob => ({
    stepId: step.id,
    url,
    options,
    retry: step.retry,
    ...(session !== undefined ? { session } : {}),
    ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}),
  });
  await Promise.all(urls.filter((u) => !done.has(u)).map((url) => runPage(ctx, job(url), timeout, tally)));
  return tally;
}

/** The scrape's options with the interaction's actions after its own; never cached (a page mid-interaction is nobody else's). */
export function interactOptions(scrape: ScrapeStep["body"], actions: ScrapeOptions["actions"] & object): ScrapeOptions {
  const { urls: _urls, ...options } = scrape;
  return { ...options, actions: [...(options.actions ?? []), ...actions], maxAge: 0, storeInCache: false };
}

/**
 * The pages of `from` stored in this run, in URL order: all of them, or those whose scrapeId the
 * step lists. Listed ids that name no stored page are warned about; when none does, the step fails.
 */
function pickPages(ctx: RunContext, step: InteractStep, from: ScrapeStep): string[] {
  const urls = [...ctx.ports.store.storedUrls(ctx.runId, from.id)].sort();
  const wanted = step.body.scrapeIds;
  if (wanted === undefined) return urls;
  const byId = new Map(urls.map((url) => [pipelineScrapeId(ctx.plan.pipeline.name, from.id, url), url]));
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length === wanted.length) {
    throw new ScrapelineError("invalid-input", `none of the scrapeIds of interact step "${step.id}" is a page scrape step "${from.id}" stored in this run (${missing.join(", ")}); \`scrapeline show\` lists the scrapeIds of a run`);
  }
  if (missing.length > 0) ctx.emit({ type: "step-warning", stepId: step.id, message: `${missing.length} scrapeId(s) name no page scrape step "${from.id}" stored in this run, skipped: ${missing.join(", ")}` });
  return urls.filter((url) => wanted.includes(pipelineScrapeId(ctx.plan.pipeline.name, from.id, url)));
}
