import type { Document, ExtractResult, Format, ScrapeOptions, Step } from "../../core/index.js";
import { ScrapelineError, sortExtractUrls } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { runPage, type PageJob, type StepTally } from "../page.js";
import { urlsFromStep } from "./scrape-step.js";
import { selectUrls } from "../url-source.js";
import { expandUrlGlobs, type MapInSession } from "./extract-urls.js";
import { discoverInSession } from "../sessions/index.js";
import { webSearchPages } from "./extract-web-search.js";

type ExtractStep = Extract<Step, { kind: "extract" }>;

/**
 * An extract step (the body of POST /v1/extract): its URLs are checked and globs expanded through
 * a map of the site, every page is scraped through the run's pool with a json format of the
 * step's schema and prompt (stored like any page, billed as a plain scrape), and the pages' data is
 * merged in URL order into one result, kept as the step's result with the tokens it took.
 */
export async function runExtractStep(ctx: RunContext, step: ExtractStep, timeout: AbortSignal): Promise<StepTally> {
  const { engine, store } = ctx.ports;
  const body = step.body;
  if (body.enableWebSearch && !engine.searchesWeb) {
    const how = engine.name === "local" ? "set SCRAPELINE_SEARXNG_URL to a SearXNG instance (see the README, Web search), use engine: firecrawl" : "use engine: firecrawl (the hosted or self-hosted service)";
    throw new ScrapelineError("unsupported", `enableWebSearch needs web search, which the ${engine.name} engine does not have here: ${how}, or set enableWebSearch: false`);
  }
  if (engine.extractJob) return runRemoteExtract(ctx, step, timeout);
  if (!engine.combineExtractions) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run extract steps here`);

  let entries: string[];
  let invalid: string[] = [];
  if (Array.isArray(body.urls)) {
    const sorted = sortExtractUrls(body.urls);
    entries = sorted.valid;
    invalid = sorted.invalid;
    if (invalid.length > 0 && !body.ignoreInvalidURLs) {
      throw new ScrapelineError("invalid-input", `invalid URL${invalid.length === 1 ? "" : "s"} in urls: ${invalid.map((u) => JSON.stringify(u)).join(", ")} (only absolute http(s) URLs and globs are allowed; ignoreInvalidURLs: true skips them)`);
    }
  } else entries = selectUrls([...urlsFromStep(ctx, body.urls.from)].filter(selectable), body.urls);
  const discovery = AbortSignal.any([timeout, ctx.abort]);
  // Globs are expanded by a map read logged in: a members' area's sitemap and links.
  const name = step.session;
  const inSession: MapInSession | undefined = name === undefined ? undefined : (map) => discoverInSession(ctx, name, discovery, map);
  const expanded = await expandUrlGlobs(entries, body, engine, discovery, inSession);
  // The web search's results are pages to extract from as well, after the step's own.
  const searched = body.enableWebSearch ? await webSearchPages(ctx, step, discovery) : [];
  const urls = [...new Set([...expanded.urls, ...searched])];
  for (const message of expanded.warnings) ctx.emit({ type: "step-warning", stepId: step.id, message });
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: urls.length });

  const pageOptions = optionsForPages(body.scrapeOptions, body.schema, body.prompt);
  const done = store.storedUrls(ctx.runId, step.id);
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  const job = (url: string): PageJob => ({
    stepId: step.id,
    url,
    options: pageOptions,
    billAs: body.scrapeOptions,
    retry: step.retry,
    ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}),
    ...(step.session !== undefined ? { session: step.session } : {}),
    toStored: (d: Document) => withoutRawHtml(d, body.scrapeOptions),
  });
  await Promise.all(urls.filter((u) => !done.has(u)).map((url) => runPage(ctx, job(url), timeout, tally)));
  if (tally.cancelled) return tally;

  const byUrl = new Map<string, Document>();
  let pageCredits = 0;
  for (const stored of store.documents(ctx.runId, step.id)) {
    byUrl.set(stored.url, stored.document);
    pageCredits += stored.creditsUsed;
  }
  const parts = urls.filter((u) => byUrl.has(u)).map((url) => ({ url, data: byUrl.get(url)!.json }));
  const tokensUsed = parts.reduce((sum, p) => sum + Number(byUrl.get(p.url)!.metadata["tokensUsed"] ?? 0), 0);
  const combined = engine.combineExtractions(parts, body.schema);
  const creditsUsed = ctx.ports.credits.forTokens(tokensUsed);
  if (creditsUsed > 0) {
    store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: creditsUsed, reason: `extract: ${tokensUsed} tokens` });
    ctx.budget.settle(0, creditsUsed);
  }
  const failed = combined.violations.length > 0;
  const warnings = [...expanded.warnings, ...combined.warnings];
  const result: ExtractResult = {
    success: !failed,
    status: failed ? "failed" : "completed",
    data: combined.data,
    ...(body.showSources ? { sources: combined.sources } : {}),
    ...(body.ignoreInvalidURLs ? { invalidURLs: invalid } : {}),
    tokensUsed,
    // What the step was charged, as serve answers it: its pages (billed as scrapes) and the model's tokens.
    creditsUsed: pageCredits + creditsUsed,
    ...(failed ? { error: `the extracted data does not match the schema: ${combined.violations.join("; ")}` } : {}),
    ...(warnings.length ? { warning: warnings.join(" ") } : {}),
  };
  store.saveStepResult(ctx.runId, step.id, JSON.stringify(result));
  for (const message of combined.warnings) ctx.emit({ type: "step-warning", stepId: step.id, message });
  if (failed) throw new ScrapelineError("bad-content", result.error!);
  return tally;
}

/** The whole extract on the service: its URLs as written (the service expands globs and judges them), the result as it reports it. */
async function runRemoteExtract(ctx: RunContext, step: ExtractStep, timeout: AbortSignal): Promise<StepTally> {
  const { engine, store } = ctx.ports;
  const body = step.body;
  const urls = Array.isArray(body.urls) ? body.urls : selectUrls(urlsFromStep(ctx, body.urls.from), body.urls);
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, total: urls.length });
  const result = await engine.extractJob!(body, urls, AbortSignal.any([timeout, ctx.abort]));
  store.saveStepResult(ctx.runId, step.id, JSON.stringify(result));
  if (result.creditsUsed > 0) {
    store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: result.creditsUsed, reason: `extract: ${result.tokensUsed} tokens` });
    ctx.budget.settle(0, result.creditsUsed);
  }
  if (result.warning) ctx.emit({ type: "step-warning", stepId: step.id, message: result.warning });
  if (!result.success) throw new ScrapelineError("bad-content", `the service's extract ${result.status}${result.error ? `: ${result.error}` : ""}`);
  return { documents: 0, failures: 0, cancelled: false };
}

/** The step's scrape options with a json format of its schema and prompt (and markdown, which the model reads). */
function optionsForPages(options: ScrapeOptions, schema: Record<string, unknown> | undefined, prompt: string | undefined): ScrapeOptions {
  const formats: Format[] = options.formats.filter((f) => f.type !== "json" && f.type !== "changeTracking");
  formats.push({ type: "json", ...(schema ? { schema } : {}), ...(prompt ? { prompt } : {}) });
  return { ...options, formats };
}

function withoutRawHtml(document: Document, options: ScrapeOptions): Document {
  if (options.formats.some((f) => f.type === "rawHtml")) return document;
  const { rawHtml: _drop, ...rest } = document;
  return rest as Document;
}

function selectable(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
