import type { Step } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import type { StepTally } from "../page.js";

type MapStep = Extract<Step, { kind: "map" }>;

/** Map credits: one per call, whatever the number of links (API-NOTES.md §4.1). */
const MAP_CREDITS = 1;

/**
 * Maps a site and stores the result as one document whose `links` are the URLs found (later
 * steps take them with `urls.from`), with titles and descriptions under metadata.mapLinks. A map
 * that finds nothing because the site cannot be reached throws, and the step fails with that
 * cause; what it warns about is stored with the document and reported as a step warning.
 */
export async function runMapStep(ctx: RunContext, step: MapStep, timeout: AbortSignal): Promise<StepTally> {
  const { engine, store } = ctx.ports;
  if (!engine.map) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run map steps`);
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: 1 });
  if (store.storedUrls(ctx.runId, step.id).has(step.body.url)) return { documents: 0, failures: 0, cancelled: false };
  if (!ctx.budget.reserve(MAP_CREDITS)) {
    ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: MAP_CREDITS });
    ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
    return { documents: 0, failures: 0, cancelled: true };
  }
  try {
    const result = await engine.map(step.body, AbortSignal.any([timeout, ctx.abort]));
    // A map cut short (its timeout, a sitemap too big, robots.txt unreadable) says so where the user looks.
    if (result.warning) ctx.emit({ type: "step-warning", stepId: step.id, message: result.warning });
    const document = {
      links: result.links.map((l) => l.url),
      ...(result.warning ? { warning: result.warning } : {}),
      metadata: { sourceURL: step.body.url, url: step.body.url, statusCode: 200, creditsUsed: MAP_CREDITS, mapLinks: result.links },
    };
    await store.saveDocument({ runId: ctx.runId, stepId: step.id, url: step.body.url, fetchedAt: new Date(ctx.clock()).toISOString(), creditsUsed: MAP_CREDITS, document });
    ctx.budget.settle(MAP_CREDITS, MAP_CREDITS);
    ctx.emit({ type: "document-stored", stepId: step.id, url: step.body.url, statusCode: 200, credits: MAP_CREDITS });
    return { documents: 1, failures: 0, cancelled: false };
  } catch (error) {
    ctx.budget.settle(MAP_CREDITS, 0);
    throw error;
  }
}
