import type { ScrapeOptions, Step } from "../../core/index.js";
import { isSignOutUrl, ScrapelineError } from "../../core/index.js";
import { cacheKey, mayWriteCache } from "../cache.js";
import type { RunContext } from "../context.js";
import { runPage, type PageJob, type PageOutcome, type StepTally, type StoredPage } from "../page.js";
import { discoverInSession, type DiscoveryExtras } from "../sessions/index.js";

type CrawlStep = Extract<Step, { kind: "crawl" }>;

/**
 * The frontier is saved every SNAPSHOT_EVERY pages, or every 1/SNAPSHOT_SHARE of the pages found
 * when that is more (a snapshot holds every page found, so saving it at a fixed interval would cost
 * time growing with the square of the site), and whenever the step stops. A resume from an older
 * snapshot loses nothing: the pages stored since are followed again from their cache entries.
 */
const SNAPSHOT_EVERY = 10;
const SNAPSHOT_SHARE = 10;

export interface CrawlTally extends StepTally {
  found: number;
  skippedByRobots: number;
  skippedByRules: number;
}

/**
 * Crawls on the local engine: the engine's frontier decides what to visit, the run's pool
 * fetches (limits, retries, politeness) and each page is stored as it finishes. Pages in flight
 * are bounded, so memory does not grow with the site. Stopping saves the frontier for --resume.
 */
export async function runCrawlStep(ctx: RunContext, step: CrawlStep, timeout: AbortSignal): Promise<CrawlTally> {
  const { engine, store } = ctx.ports;
  if (!engine.startCrawl) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run crawl steps here`);
  // Started before its start URL is checked, so a crawl that cannot start is in the summary as failed.
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind });
  const saved = store.stepState(ctx.runId, step.id);
  const start = (extras: Partial<DiscoveryExtras> = {}) => engine.startCrawl!(step.body, { signal: timeout, ...(saved ? { restore: JSON.parse(saved) } : {}), ...extras });
  // A members' area's robots.txt and sitemaps are read logged in too (logging in again when the kept login expired).
  const frontier = step.session === undefined ? await start() : await discoverInSession(ctx, step.session, AbortSignal.any([timeout, ctx.abort]), start);
  const already = store.storedUrls(ctx.runId, step.id);
  const options = step.body.scrapeOptions;
  // The engine also returns every link of each page (pageLinks): what the crawl follows, whatever
  // the content options shape into the stored page and its links format.
  const job = (url: string, linksOnly?: true): PageJob => ({
    stepId: step.id,
    url,
    ...(linksOnly ? { linksOnly } : {}),
    options,
    retry: step.retry,
    pageLinks: true,
    ...(step.session !== undefined ? { session: step.session } : {}),
    ...(step.timeoutMs !== undefined ? { stepTimeoutMs: step.timeoutMs } : {}),
  });
  const storedPage = storedLinks(ctx, options);
  const delaySeconds = step.body.delay ?? frontier.delaySeconds;
  if (delaySeconds) ctx.pool.spaceHost(new URL(step.body.url).host, delaySeconds * 1000);
  for (const message of frontier.warnings) ctx.emit({ type: "step-warning", stepId: step.id, message });

  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  // A logged-in crawl does not follow the links that would sign it out (a "Log out" link in every page's menu).
  const signOuts = new Set<string>();
  const follow = (links: readonly string[]): readonly string[] => {
    if (step.session === undefined) return links;
    return links.filter((link) => {
      if (!isSignOutUrl(link)) return true;
      signOuts.add(link);
      return false;
    });
  };
  // The progress bar's figures: how far the crawl has got, as pages finish.
  let finished = 0;
  const tellProgress = () => ctx.emit({ type: "step-progress", stepId: step.id, found: Math.min(frontier.stats.found, step.body.limit), limit: step.body.limit, done: finished });
  tellProgress();
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = Math.max(2, ctx.plan.pipeline.concurrency * 2);
  let sinceSnapshot = 0;
  const visited = new Set<string>();
  const snapshot = () => {
    store.saveStepState(ctx.runId, step.id, JSON.stringify(frontier.snapshot()));
    sinceSnapshot = 0;
  };

  while (!ctx.stop.aborted && !timeout.aborted) {
    const next = frontier.next();
    if (!next) {
      // A shared frontier may get pages from other processes' pages in flight: wait for them.
      if (inFlight.size === 0 && frontier.shared && (await frontier.shared.more(AbortSignal.any([ctx.stop, timeout])))) continue;
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
      continue;
    }
    visited.add(next.url);
    if (already.has(next.url)) {
      const page = storedPage(next.url);
      if (page) {
        frontier.discover(page.url, follow(page.links ?? []), next.depth);
        frontier.done(next.url);
        finished++;
        tellProgress();
        continue;
      }
      // Its links are needed to go on and were not kept: the page is fetched again (and stored once).
    }
    const task: Promise<void> = runPage(ctx, job(next.url, next.linksOnly), timeout, tally).then((outcome: PageOutcome) => {
      // A page the stop reached before it was stored stays active: the saved frontier queues it again for --resume.
      if (outcome === "cancelled") return;
      if (outcome !== "failed") frontier.discover(outcome.url, follow(outcome.links ?? []), next.depth);
      frontier.done(next.url);
      finished++;
      tellProgress();
      if (++sinceSnapshot >= Math.max(SNAPSHOT_EVERY, frontier.stats.found / SNAPSHOT_SHARE)) snapshot();
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  // A start page the site answered with a block page: the crawl saw nothing of the site, and its
  // pages from the previous crawl are not gone (they are not checked as hidden either).
  const blockedStart = tally.documents === 0 ? startBlocked(ctx, step.id, [...visited][0]) : undefined;
  if (blockedStart) throw new ScrapelineError("blocked-page", `the crawl's start page was ${blockedStart.error}`, { url: blockedStart.url });
  if (!ctx.stop.aborted && !timeout.aborted && frontier.stats.found < step.body.limit && (frontier.shared?.leads ?? true)) {
    await revisitHidden(ctx, step, visited, (url) => ({ ...job(url), visibility: "hidden" }), timeout, tally);
  }
  snapshot();
  if (signOuts.size > 0) {
    const shown = [...signOuts].slice(0, 3).join(", ");
    ctx.emit({ type: "step-warning", stepId: step.id, message: `${signOuts.size} link(s) that would sign session "${step.session}" out were not followed: ${shown}${signOuts.size > 3 ? ", …" : ""}` });
  }
  const blocked = frontier.robotsBlocked;
  if (blocked.length > 0) {
    const shown = blocked.slice(0, 5).join(", ");
    ctx.emit({ type: "step-warning", stepId: step.id, message: `robots.txt disallowed ${frontier.stats.skippedByRobots} URL(s): ${shown}${blocked.length > 5 ? ", …" : ""}` });
  }
  if (ctx.stop.aborted || timeout.aborted) tally.cancelled = true;
  return { ...tally, ...frontier.stats };
}

/**
 * With change tracking, the pages the previous crawl of the same start URL stored and this one
 * did not find are fetched once more and reported with visibility `hidden` (removed when they no
 * longer answer; a page reported so is not asked again by later crawls).
 */
async function revisitHidden(ctx: RunContext, step: CrawlStep, visited: Set<string>, job: (url: string) => PageJob, timeout: AbortSignal, tally: StepTally): Promise<void> {
  const tracked = !ctx.ports.engine.tracksChanges && step.body.scrapeOptions.formats.some((f) => f.type === "changeTracking");
  if (!tracked) return;
  const { store } = ctx.ports;
  const previous = store.previousStepRun(ctx.plan.pipeline.name, step.id, ctx.runId);
  if (!previous || !sameStart(previous.planJson, step)) return;
  const already = store.storedUrls(ctx.runId, step.id);
  // A page already found gone while hidden is not asked again: it is out of the site.
  const gone = new Set(store.pageChanges(previous.runId).filter((p) => p.stepId === step.id && p.change.visibility === "hidden" && p.change.changeStatus === "removed").map((p) => p.url));
  const hidden = [...store.storedUrls(previous.runId, step.id)].filter((url) => !visited.has(url) && !already.has(url) && !gone.has(url));
  if (hidden.length > 0) ctx.emit({ type: "step-warning", stepId: step.id, message: `${hidden.length} page(s) of the previous crawl were not found this time; checking them as hidden` });
  await Promise.all(hidden.map((url) => runPage(ctx, job(url), timeout, tally)));
}

/** The start page's failure when the site answered it with a block or challenge page. */
function startBlocked(ctx: RunContext, stepId: string, startUrl: string | undefined): { url: string; error: string } | undefined {
  if (startUrl === undefined) return undefined;
  return ctx.ports.store.failures(ctx.runId).find((f) => f.stepId === stepId && f.url === startUrl && f.kind === "blocked-page");
}

function sameStart(planJson: string, step: CrawlStep): boolean {
  try {
    const steps = (JSON.parse(planJson) as { steps?: Array<{ id: string; kind: string; body?: { url?: string } }> }).steps ?? [];
    const before = steps.find((s) => s.id === step.id);
    return before?.kind === "crawl" && before.body?.url === step.body.url;
  } catch {
    return false;
  }
}

/**
 * Where a page this step stored before an interruption led: its page-cache entry, written with
 * it, keeps its links. The saved frontier may be older than the page, so following them again is
 * what finds the pages only it linked to.
 */
function storedLinks(ctx: RunContext, options: ScrapeOptions): (url: string) => StoredPage | undefined {
  if (!mayWriteCache(options)) return () => undefined;
  const key = cacheKey(options);
  return (url) => {
    const entry = ctx.ports.store.cacheGet(url, key, Number.MAX_SAFE_INTEGER);
    return entry?.document.pageLinks ? { url: entry.document.metadata.url || url, links: entry.document.pageLinks } : undefined;
  };
}
