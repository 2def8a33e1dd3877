import type { KeptPage, Step } from "../../core/index.js";
import type { RunContext } from "../context.js";

/** Scraped pages a run keeps open at most, for interact steps to carry on from; beyond, pages are loaded again. */
export const MAX_KEPT_PAGES = 16;

interface Held {
  /** By scrape step, by URL. */
  pages: Map<string, Map<string, KeptPage>>;
  /** Pages of a scrape step this process loaded to keep, by URL: whether there was room to keep them. */
  asked: Map<string, Map<string, "kept" | "no-room">>;
}

const heldByRun = new WeakMap<RunContext, Held>();

function held(ctx: RunContext): Held {
  let found = heldByRun.get(ctx);
  if (!found) {
    found = { pages: new Map(), asked: new Map() };
    heldByRun.set(ctx, found);
  }
  return found;
}

/** The interact steps of the run that carry on from scrape step `stepId`, in file order. */
function interactsFrom(ctx: RunContext, stepId: string): Array<Extract<Step, { kind: "interact" }>> {
  return ctx.plan.pipeline.steps.filter((s): s is Extract<Step, { kind: "interact" }> => s.kind === "interact" && s.body.from === stepId);
}

/**
 * What a scrape step's page does with its open browser page: kept for the interact steps that
 * carry on from the step (undefined when none does, so the page is closed as usual).
 */
export function pageKeeper(ctx: RunContext, stepId: string, url: string): ((page: KeptPage) => void) | undefined {
  if (interactsFrom(ctx, stepId).length === 0) return undefined;
  const { asked } = held(ctx);
  if (!asked.has(stepId)) asked.set(stepId, new Map());
  return (page) => keep(ctx, stepId, url, page);
}

/** Keeps `page` as the open page of `url` in scrape step `stepId` (closing one it replaces), unless the run holds its most already. */
export function keep(ctx: RunContext, stepId: string, url: string, page: KeptPage): void {
  const { pages, asked } = held(ctx);
  let byUrl = pages.get(stepId);
  const replaced = byUrl?.get(url);
  const open = [...pages.values()].reduce((n, m) => n + m.size, 0) - (replaced ? 1 : 0);
  const fates = asked.get(stepId) ?? new Map<string, "kept" | "no-room">();
  asked.set(stepId, fates);
  if (ctx.abort.aborted || open >= MAX_KEPT_PAGES) {
    if (!replaced) fates.set(url, "no-room");
    void page.close();
    return;
  }
  fates.set(url, "kept");
  if (!byUrl) pages.set(stepId, (byUrl = new Map()));
  byUrl.set(url, page);
  if (replaced && replaced !== page) void replaced.close();
}

/**
 * Why a page of scrape step `stepId` is not open for an interact step: the scrape ran in an earlier
 * process of the run ("earlier-process"), the run kept its most pages open already ("no-room"), or
 * the page was not loaded in a browser, or came from the page cache ("not-in-browser").
 */
export function whyNotOpen(ctx: RunContext, stepId: string, url: string): "earlier-process" | "no-room" | "not-in-browser" {
  const fates = held(ctx).asked.get(stepId);
  if (fates === undefined) return "earlier-process";
  return fates.get(url) === "no-room" ? "no-room" : "not-in-browser";
}

/** Takes the open page of `url` in scrape step `stepId`, if the run kept it; the taker closes it or gives it back. */
export function takeKeptPage(ctx: RunContext, stepId: string, url: string): KeptPage | undefined {
  const byUrl = held(ctx).pages.get(stepId);
  const page = byUrl?.get(url);
  byUrl?.delete(url);
  return page;
}

/** Gives an open page back after interact step `interactId`, for the next interact step from the same scrape; the last one closes it. */
export async function giveBack(ctx: RunContext, interactId: string, stepId: string, url: string, page: KeptPage): Promise<void> {
  const after = interactsFrom(ctx, stepId);
  const index = after.findIndex((s) => s.id === interactId);
  if (index < 0 || index === after.length - 1 || ctx.stop.aborted) return page.close();
  keep(ctx, stepId, url, page);
}

/** Closes every page the run still keeps (when it ends, however it ends). */
export async function closeKeptPages(ctx: RunContext): Promise<void> {
  const { pages } = held(ctx);
  const all = [...pages.values()].flatMap((m) => [...m.values()]);
  pages.clear();
  await Promise.all(all.map((p) => p.close().catch(() => undefined)));
}
