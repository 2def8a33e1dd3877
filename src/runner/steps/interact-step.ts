import type { Document, KeptPage, ScrapeOptions, Step } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { giveBack, MAX_KEPT_PAGES, takeKeptPage, whyNotOpen } from "../sessions/index.js";
import { runPage, type PageJob, type StepTally } from "../page.js";
import { pipelineScrapeId } from "./scrape-id.js";
import { scrapeInSession, sessionPageOptions } from "../sessions/index.js";

type InteractStep = Extract<Step, { kind: "interact" }>;
type ScrapeStep = Extract<Step, { kind: "scrape" }>;

/**
 * An interact step: on every page the `from` scrape stored in this run, as that scrape left it,
 * the step's actions run and the page they leave is stored under the scrape's URL, with what each
 * `scrape` action captured on the way in its `actions.scrapes`. The page is the scrape's own open
 * browser page when the run kept it; otherwise (a resumed run, more pages than are kept open, a
 * page the scrape did not load in a browser, a session of the step's own) it is loaded again with
 * the scrape's session, waitFor and actions. With `tabs`, links of the page it ends on are opened
 * in tabs of the same context and stored as well.
 */
export async function runInteractStep(ctx: RunContext, step: InteractStep, timeout: AbortSignal): Promise<StepTally> {
  const from = ctx.plan.pipeline.steps.find((s): s is ScrapeStep => s.id === step.body.from && s.kind === "scrape");
  if (!from) throw new ScrapelineError("invalid-input", `interact step "${step.id}" carries on from "${step.body.from}", which is not a scrape step of this pipeline`);
  const urls = pickPages(ctx, step, from);
  const done = ctx.ports.store.storedUrls(ctx.runId, step.id);
  // With tabs, how many pages the step stores is known only as it goes.
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind, ...(step.body.tabs ? {} : { total: urls.length }) });
  if (!ctx.ports.engine.keepsPages) return replayEach(ctx, step, from, urls.filter((u) => !done.has(u)), timeout);
  const work = new CarryOn(ctx, step, from, done, timeout);
  // A page whose tabs or snapshots may not all be stored yet is visited again to find them.
  const revisit = step.body.tabs !== undefined || step.body.actions.some((a) => a.type === "scrape");
  const todo = revisit ? urls : urls.filter((u) => !done.has(u));
  await Promise.all(todo.map((url) => work.page(url, urls)));
  work.warnReplays(todo.length);
  return work.tally;
}

/**
 * On an engine that cannot keep a browser page open (the service): each page is scraped again with
 * the scrape's actions and then the step's, in one request.
 */
async function replayEach(ctx: RunContext, step: InteractStep, from: ScrapeStep, urls: readonly string[], timeout: AbortSignal): Promise<StepTally> {
  if (step.body.tabs) throw new ScrapelineError("unsupported", `interact step "${step.id}" opens tabs, which needs a browser this process drives: the ${ctx.ports.engine.name} engine has none (run it on engine: local)`);
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  const session = step.session ?? from.session;
  const job = (url: string): PageJob => ({
    stepId: step.id,
    url,
    options: interactOptions(from.body, step.body.actions),
    retry: step.retry,
    ...(session !== undefined ? { session } : {}),
    ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}),
  });
  await Promise.all(urls.map((url) => runPage(ctx, job(url), timeout, tally)));
  return tally;
}

/** The scrape's options with the interaction's actions after its own; never cached (a page mid-interaction is nobody else's). */
export function interactOptions(scrape: ScrapeStep["body"], actions: ScrapeOptions["actions"] & object): ScrapeOptions {
  const { urls: _urls, ...options } = scrape;
  return { ...options, actions: [...(options.actions ?? []), ...actions], maxAge: 0, storeInCache: false };
}

/** The pages of one interact step: each carried on from, then its tabs. */
class CarryOn {
  readonly tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  /** Pages loaded again rather than carried on from as they were left, by why (pages a browser never held are not counted). */
  private readonly replayed = { "earlier-process": 0, "no-room": 0, session: 0 };
  private readonly session: string | undefined;
  /** The step carries on in the scrape's own session, so the scrape's open pages are its to use. */
  private readonly sameSession: boolean;
  /** Tab URLs and snapshot keys this step has taken on, so a page several pages lead to is stored once. */
  private readonly claimed = new Set<string>();

  constructor(
    private readonly ctx: RunContext,
    private readonly step: InteractStep,
    private readonly from: ScrapeStep,
    private readonly done: ReadonlySet<string>,
    private readonly timeout: AbortSignal,
  ) {
    this.session = step.session ?? from.session;
    this.sameSession = step.session === undefined || step.session === from.session;
  }

  /** One page of the scrape: carried on from, stored (unless it already was), then its tabs. */
  async page(url: string, pages: readonly string[]): Promise<void> {
    let open: KeptPage | undefined = this.sameSession ? takeKeptPage(this.ctx, this.from.id, url) : undefined;
    if (!open) {
      const why = this.sameSession ? whyNotOpen(this.ctx, this.from.id, url) : "session";
      if (why !== "not-in-browser") this.replayed[why]++;
    }
    let used = false;
    let healthy = false;
    let tabUrls: string[] = [];
    let snapshots: Document[] = [];
    const options = interactOptions(this.from.body, this.step.body.actions);
    const carry = async (engineOptions: ScrapeOptions, signal: AbortSignal): Promise<Document> => {
      // A page that was already carried on from (a retry) is in a state nobody knows: load it again.
      if (!open || used) {
        await open?.close();
        open = undefined;
        open = await this.reload(url, signal);
      }
      used = true;
      healthy = false;
      const carried = await open.carryOn(this.step.body.actions, engineOptions, signal, this.step.body.tabs);
      healthy = true;
      tabUrls = carried.tabUrls;
      snapshots = carried.snapshots;
      return carried.document;
    };
    try {
      if (this.done.has(url)) {
        // Stored before an interruption: only its snapshots and tabs are left to store.
        await carry(this.session === undefined ? options : sessionPageOptions(options), AbortSignal.any([this.timeout, this.ctx.abort]));
      } else {
        const outcome = await runPage(this.ctx, this.job(url, options, carry), this.timeout, this.tally);
        if (typeof outcome !== "object") return;
      }
      await this.snapshots(url, snapshots, pages);
      await this.tabs(tabUrls, pages, () => open);
    } catch (error) {
      // Only a revisit for tabs and snapshots reaches here: its page is recorded as a failure of the step.
      this.failed(url, error);
    } finally {
      // A page left where this step's actions took it goes on to the next interact step from the same scrape.
      const last = open;
      if (last && healthy) await giveBack(this.ctx, this.step.id, this.from.id, url, last);
      else await last?.close();
    }
  }

  /**
   * What each `scrape` action of the step captured on the way, stored as a page of the step: under
   * the URL the page had then (a next page of a list), or, when that URL is the carried-on page's
   * or another's of the step, under `URL#scrape-N` (N counting the scrape actions from 1).
   */
  private async snapshots(url: string, snapshots: readonly Document[], pages: readonly string[]): Promise<void> {
    const { urls: _urls, ...scrape } = this.from.body;
    const options: ScrapeOptions = { ...scrape, actions: [], maxAge: 0, storeInCache: false };
    const keyed = snapshots.map((document, i) => {
      const at = document.metadata.url || document.metadata.sourceURL || url;
      const taken = at === url || pages.includes(at) || this.claimed.has(at);
      return { key: taken ? `${at}#scrape-${i + 1}` : at, document };
    });
    const fresh = keyed.filter(({ key }) => !this.done.has(key) && !this.claimed.has(key));
    for (const { key } of fresh) this.claimed.add(key);
    await Promise.all(fresh.map(({ key, document }) => runPage(this.ctx, this.job(key, options, async () => structuredClone(document)), this.timeout, this.tally)));
  }

  /** The tabs of a page, each stored under its URL; a tab is loaded on its own with the session when the page had to be closed. */
  private async tabs(tabUrls: readonly string[], pages: readonly string[], open: () => KeptPage | undefined): Promise<void> {
    const spec = this.step.body.tabs;
    if (!spec) return;
    const { urls: _urls, ...scrape } = this.from.body;
    const options: ScrapeOptions = { ...scrape, actions: spec.actions, maxAge: 0, storeInCache: false };
    const fresh = tabUrls.filter((u) => !pages.includes(u) && !this.done.has(u) && !this.claimed.has(u));
    for (const u of fresh) this.claimed.add(u);
    await Promise.all(
      fresh.map((tabUrl) => {
        const load = async (engineOptions: ScrapeOptions, signal: AbortSignal): Promise<Document> => {
          const page = open();
          if (page) return page.openTab(tabUrl, engineOptions, signal);
          return this.session === undefined ? this.ctx.ports.engine.scrape(tabUrl, engineOptions, signal) : scrapeInSession(this.ctx, this.session, tabUrl, engineOptions, signal);
        };
        return runPage(this.ctx, this.job(tabUrl, options, load), this.timeout, this.tally);
      }),
    );
  }

  /** The scrape's page loaded again as the scrape left it (its session, waitFor and actions), kept open. */
  private async reload(url: string, signal: AbortSignal): Promise<KeptPage> {
    let kept: KeptPage | undefined;
    const keepOpen = (page: KeptPage) => {
      void kept?.close();
      kept = page;
    };
    const options = interactOptions(this.from.body, []);
    if (this.session === undefined) await this.ctx.ports.engine.scrape(url, options, signal, { keepOpen, inBrowser: true });
    else await scrapeInSession(this.ctx, this.session, url, sessionPageOptions(options), signal, { keepOpen, inBrowser: true });
    if (!kept) throw new ScrapelineError("unsupported", `interact step "${this.step.id}" needs the page in a browser, and the ${this.ctx.ports.engine.name} engine did not load ${url} in one`, { url });
    return kept;
  }

  private job(url: string, options: ScrapeOptions, fetch: PageJob["fetch"] & object): PageJob {
    return {
      stepId: this.step.id,
      url,
      options,
      retry: this.step.retry,
      fetch,
      ...(this.session !== undefined ? { session: this.session } : {}),
      ...(this.step.timeoutMs !== undefined ? { stepTimeoutMs: this.step.timeoutMs } : {}),
    };
  }

  private failed(url: string, error: unknown): void {
    if (this.ctx.stop.aborted || this.timeout.aborted || this.ctx.abort.aborted) {
      this.tally.cancelled = true;
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    this.tally.failures++;
    this.ctx.ports.store.saveFailure({ runId: this.ctx.runId, stepId: this.step.id, url, kind: error instanceof ScrapelineError ? error.kind : "unknown", error: `finding the tabs of the page again: ${reason}` });
    this.ctx.emit({ type: "document-failed", stepId: this.step.id, url, kind: error instanceof ScrapelineError ? error.kind : "unknown", reason });
  }

  /** Says when pages were loaded again rather than carried on from as the scrape left them, and why. */
  warnReplays(visited: number): void {
    const reasons = {
      "earlier-process": "the scrape ran in an earlier process of this run (resumed)",
      "no-room": `a run keeps at most ${MAX_KEPT_PAGES} pages open`,
      session: `this step loads them in its own session "${this.step.session}"`,
    };
    for (const [why, count] of Object.entries(this.replayed) as Array<[keyof typeof reasons, number]>) {
      if (count === 0) continue;
      this.ctx.emit({ type: "step-warning", stepId: this.step.id, message: `${count} of ${visited} page(s) of "${this.from.id}" were loaded again, the scrape's waitFor and actions replayed, before this step's actions: ${reasons[why]}` });
    }
  }
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
