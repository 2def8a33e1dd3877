import type { AgentToolName, AgentToolOutput, AgentTools, Document, JsonSchema, ScrapeOptions, Step } from "../../core/index.js";
import { agentTokenCredits, isSignOutUrl, ScrapelineError, searchCredits } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { runPage, type PageJob, type StepTally } from "../page.js";
import { discoverInSession, type DiscoveryExtras } from "../sessions/index.js";

type AgentStep = Extract<Step, { kind: "agent" }>;

/** The page text a scrape gives the model at most when its context is not known (about 6000 tokens). */
export const PAGE_CHARS = 24_000;
/** Characters a token holds, roughly (English prose). */
const CHARS_PER_TOKEN = 4;
const LINKS_SHOWN = 100;
const MAP_CREDITS = 1;

/**
 * The agent's tools on the run's engine: scrape and extract fetch through the run's pool (limits,
 * retries, budget, the fetch gate) and store their pages as documents of the step; map and search
 * reserve their credits in the run's budget and record them in the ledger.
 */
export class RunnerAgentTools implements AgentTools {
  readonly available: AgentToolName[];
  private readonly options: ScrapeOptions;
  /** A page's share of the model's context: a quarter of it, so several pages and the task fit. */
  private readonly pageChars: number;

  constructor(
    private readonly ctx: RunContext,
    private readonly step: AgentStep,
    private readonly timeout: AbortSignal,
    private readonly tally: StepTally,
    contextTokens?: number,
    /** Pages the step stored in an interrupted attempt: a scrape of one reads it back, unfetched. */
    private readonly storedBefore: ReadonlySet<string> = new Set(),
  ) {
    this.pageChars = contextTokens ? Math.max(2000, Math.floor((contextTokens * CHARS_PER_TOKEN) / 4)) : PAGE_CHARS;
    const engine = ctx.ports.engine;
    if (!step.body.scrapeOptions) throw new ScrapelineError("internal", `agent step "${step.id}" has no scrape options`);
    this.options = step.body.scrapeOptions;
    this.available = [...(engine.search && engine.canSearch !== false ? (["search"] as const) : []), ...(engine.map ? (["map"] as const) : []), "scrape", "extract"];
  }

  estimate(name: AgentToolName, args: Record<string, unknown>): number {
    const credits = this.ctx.ports.credits;
    if (name === "scrape") return credits.estimatePage(this.options);
    if (name === "extract") return credits.estimatePage(this.jsonOptions(args));
    if (name === "map") return MAP_CREDITS;
    return searchCredits(limitOf(args, 5, 20));
  }

  async call(name: AgentToolName, args: Record<string, unknown>, signal: AbortSignal): Promise<AgentToolOutput> {
    if (name === "search") return this.search(String(args.query ?? ""), limitOf(args, 5, 20), signal);
    const url = typeof args.url === "string" ? args.url : "";
    if (!/^https?:\/\/[^/\s]+/i.test(url)) throw new ScrapelineError("invalid-input", "url must be an absolute http(s) URL");
    if (name === "map") return this.map(url, typeof args.search === "string" ? args.search : undefined, limitOf(args, 100, 200), signal);
    if (name === "scrape") {
      const render = (doc: { metadata?: Record<string, unknown>; markdown?: string; links?: string[] }) => pageText(doc.metadata, url, doc.markdown, doc.links, this.pageChars);
      return this.readBack(url, render) ?? this.scrape(url, this.options, {}, render);
    }
    if (!this.ctx.ports.engine.extractPage) return this.scrape(url, this.jsonOptions(args), {}, (doc) => `Data read from ${url}:\n${JSON.stringify(doc.json ?? null)}`);
    return this.extract(url, args, signal);
  }

  /**
   * The page fetched once (billed as a json scrape), then its data read by the engine: structured
   * data and selectors first, the model only when they fall short (its tokens billed on top).
   */
  private async extract(url: string, args: Record<string, unknown>, signal: AbortSignal): Promise<AgentToolOutput> {
    const { ctx, step } = this;
    const json = this.jsonOptions(args);
    const format = json.formats[0] as { schema?: JsonSchema; prompt?: string };
    let page: { markdown: string; rawHtml?: string } = { markdown: "" };
    const fetchOptions: ScrapeOptions = { ...this.options, formats: [{ type: "markdown" }, { type: "rawHtml" }, { type: "links" }] };
    const keep = (document: Document): Document => {
      page = { markdown: document.markdown ?? "", ...(document.rawHtml !== undefined ? { rawHtml: document.rawHtml } : {}) };
      const { rawHtml: _raw, ...stored } = document;
      return stored as Document;
    };
    const fetched = await this.scrape(url, fetchOptions, { billAs: json, toStored: keep }, () => "");
    const extraction = await ctx.ports.engine.extractPage!({ url, ...page }, { ...(format.schema ? { schema: format.schema } : {}), ...(format.prompt ? { prompt: format.prompt } : {}) }, signal);
    const tokenCredits = agentTokenCredits(extraction.tokensUsed);
    if (tokenCredits > 0) {
      ctx.budget.settle(0, tokenCredits);
      ctx.ports.store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: tokenCredits, reason: `agent extract: ${extraction.tokensUsed} model token(s)`, url });
    }
    const how = extraction.extractor === "deterministic" ? "from the page's structured data and selectors" : "by the model";
    return { content: `Data read from ${url} (${how}):\n${JSON.stringify(extraction.data ?? null)}`, credits: fetched.credits + tokenCredits, ...(fetched.urls ? { urls: fetched.urls } : {}) };
  }

  private jsonOptions(args: Record<string, unknown>): ScrapeOptions {
    const schema = typeof args.schema === "object" && args.schema !== null ? (args.schema as JsonSchema) : this.step.body.schema;
    const prompt = typeof args.prompt === "string" ? args.prompt : schema ? undefined : this.step.body.prompt;
    return { ...this.options, formats: [{ type: "json", ...(schema ? { schema } : {}), ...(prompt ? { prompt } : {}) }] };
  }

  /** A page through the run's pool, stored as the step's document; the model gets `render` of it. */
  private async scrape(url: string, options: ScrapeOptions, shape: Pick<PageJob, "billAs" | "toStored">, render: (doc: { metadata?: Record<string, unknown>; markdown?: string; links?: string[]; json?: unknown }) => string): Promise<AgentToolOutput> {
    const { ctx, step } = this;
    // Logged in, a link that signs out is not followed: it would end the login the step works in.
    if (step.session !== undefined && isSignOutUrl(url)) return { content: `Not read: ${url} would sign session "${step.session}" out. Choose another page.`, credits: 0 };
    // A page read again (scraped, then extracted) replaces its stored document: the earlier read stays billed, in the ledger.
    const earlier = this.storedCredits(url);
    const outcome = await runPage(ctx, { stepId: step.id, url, options, ...shape, retry: step.retry, ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}), ...(step.session !== undefined ? { session: step.session } : {}) }, this.timeout, this.tally);
    if (outcome === "cancelled") throw ctx.budget.exhausted ? new ScrapelineError("budget", `the run's budget of ${ctx.budget.limit} credits is spent`) : new ScrapelineError("cancelled", "the step stopped");
    if (outcome === "failed") {
      const failure = ctx.ports.store.failures(ctx.runId).filter((f) => f.stepId === step.id && f.url === url).at(-1);
      throw new ScrapelineError("http-status", failure ? `${failure.kind}: ${failure.error}` : `${url} could not be read`);
    }
    if (earlier !== undefined && earlier > 0) ctx.ports.store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: earlier, reason: `agent: an earlier read of ${url}, replaced by a later one`, url });
    let stored: { creditsUsed: number; document: Parameters<typeof render>[0] } | undefined;
    for (const d of ctx.ports.store.documents(ctx.runId, step.id, new Set([url]))) stored = d as typeof stored;
    if (!stored) throw new ScrapelineError("internal", `${url} was stored but cannot be read back`);
    const finalUrl = typeof stored.document.metadata?.url === "string" ? stored.document.metadata.url : url;
    return { content: render(stored.document), credits: stored.creditsUsed, urls: [...new Set([url, finalUrl])] };
  }

  private async map(url: string, search: string | undefined, limit: number, signal: AbortSignal): Promise<AgentToolOutput> {
    const { ctx, step } = this;
    const request = { url, ...(search ? { search } : {}), sitemap: "include", includeSubdomains: false, ignoreQueryParameters: true, limit, ...(this.options.threatProtection ? { threatProtection: this.options.threatProtection } : {}) } as const;
    const map = (extras?: DiscoveryExtras) => ctx.ports.engine.map!(request, signal, extras);
    // With the step's session, the site's robots.txt, sitemaps and pages are read logged in (logging in again when the kept login expired).
    const name = step.session;
    const result = await this.billed(MAP_CREDITS, () => (name === undefined ? map() : discoverInSession(ctx, name, signal, map)), () => MAP_CREDITS);
    ctx.ports.store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: MAP_CREDITS, reason: `agent map: ${url}`, url });
    const lines = result.links.slice(0, limit).map((l) => `- ${l.url}${l.title ? ` (${l.title})` : ""}`);
    return { content: `${result.links.length} URL(s) of ${url}:\n${lines.join("\n")}${result.warning ? `\nwarning: ${result.warning}` : ""}`, credits: MAP_CREDITS };
  }

  private async search(query: string, limit: number, signal: AbortSignal): Promise<AgentToolOutput> {
    const { ctx, step } = this;
    if (!query.trim()) throw new ScrapelineError("invalid-input", "query must not be empty");
    const answer = await this.billed(searchCredits(limit), () => ctx.ports.engine.search!({ query, limit, sources: [{ type: "web" }], timeout: 60_000, ignoreInvalidURLs: true }, { signal }), (a) => a.creditsUsed ?? searchCredits(a.data.web?.length ?? 0));
    const results = answer.data.web ?? [];
    const credits = answer.creditsUsed ?? searchCredits(results.length);
    if (credits > 0) ctx.ports.store.recordCredits({ runId: ctx.runId, stepId: step.id, credits, reason: `agent search: ${results.length} result(s)` });
    const lines = results.map((r) => `- ${r.url}${r.title ? `: ${r.title}` : ""}${r.description ? ` — ${r.description}` : ""}`);
    return { content: `${results.length} result(s) for "${query}":\n${lines.join("\n")}`, credits };
  }

  /** A page stored before the run was resumed, as the model gets it (already billed: no credits). */
  private readBack(url: string, render: (doc: { metadata?: Record<string, unknown>; markdown?: string; links?: string[] }) => string): AgentToolOutput | undefined {
    const { ctx, step } = this;
    if (!this.storedBefore.has(url)) return undefined;
    for (const d of ctx.ports.store.documents(ctx.runId, step.id, new Set([url]))) {
      const doc = d.document as { metadata?: Record<string, unknown>; markdown?: string; links?: string[] };
      if (doc.markdown === undefined) return undefined;
      const finalUrl = typeof doc.metadata?.url === "string" ? doc.metadata.url : url;
      return { content: render(doc), credits: 0, urls: [...new Set([url, finalUrl])] };
    }
    return undefined;
  }

  /** The credits of the page this step stored for `url`, if it stored one. */
  private storedCredits(url: string): number | undefined {
    const { ctx, step } = this;
    if (!ctx.ports.store.storedUrls(ctx.runId, step.id).has(url)) return undefined;
    for (const d of ctx.ports.store.documents(ctx.runId, step.id, new Set([url]))) return d.creditsUsed;
    return undefined;
  }

  /** A call that is not a page: its estimate reserved in the run's budget, settled at what it cost. */
  private async billed<T>(estimate: number, work: () => Promise<T>, cost: (value: T) => number): Promise<T> {
    const { ctx } = this;
    if (!ctx.budget.reserve(estimate)) {
      ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit ?? 0, needed: estimate });
      throw new ScrapelineError("budget", `the run's budget of ${ctx.budget.limit} credits is spent`);
    }
    try {
      const value = await work();
      ctx.budget.settle(estimate, cost(value));
      return value;
    } catch (error) {
      ctx.budget.settle(estimate, 0);
      throw error;
    }
  }
}

function limitOf(args: Record<string, unknown>, fallback: number, max: number): number {
  const n = typeof args.limit === "number" && Number.isInteger(args.limit) && args.limit > 0 ? args.limit : fallback;
  return Math.min(n, max);
}

/** A page for the model: title, URL, markdown trimmed to PAGE_CHARS, then its links. */
export function pageText(metadata: Record<string, unknown> | undefined, url: string, markdown: string | undefined, links: string[] | undefined, limit = PAGE_CHARS): string {
  const title = metadata?.title;
  const status = Number(metadata?.statusCode) || 200;
  const text = markdown ?? "";
  const body = text.length > limit ? `${text.slice(0, limit)}\n[… trimmed: ${text.length - limit} more characters]` : text;
  const shown = (links ?? []).slice(0, LINKS_SHOWN);
  const more = (links?.length ?? 0) > LINKS_SHOWN ? `\n[… ${links!.length - LINKS_SHOWN} more links]` : "";
  return `${typeof title === "string" && title ? `# ${title}\n` : ""}URL: ${url}${status >= 400 ? `\nStatus: ${status} (an error page)` : ""}\n\n${body}\n\nLinks:\n${shown.map((l) => `- ${l}`).join("\n")}${more}`;
}
