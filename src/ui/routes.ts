import type { ReadScope, UiData } from "../app/ui-data/index.js";
import { ICON, SCRIPT, STYLESHEET } from "./assets.js";
import type { Html } from "./html.js";
import { notFound, type ViewContext } from "./layout.js";
import { changesView, CHANGE_FILTERS, CHANGES_PAGE_SIZE } from "./views/changes.js";
import { CHART_RUNS, chartsView } from "./views/charts.js";
import { documentView } from "./views/document.js";
import { historyView } from "./views/history.js";
import { MONITOR_CHECKS, monitorsView, monitorView } from "./views/monitors.js";
import { readLayout } from "./views/layout-switch.js";
import { PAGE_SIZE, runView, type StepPages } from "./views/run.js";
import { RUN_STATUSES, runsView } from "./views/runs.js";

/** What the UI answers: a page, an asset of its own, or a stored screenshot. */
export type UiReply = { status: number; html: Html } | { status: number; body: string | Buffer; contentType: string; download?: boolean; preview?: boolean };

/** Media types of stored assets shown inline; anything else is sent as a download. */
const INLINE_MEDIA = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

const RUNS_PAGE = 50;

function count(value: string | null): number {
  const n = Number(value ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

function optional(value: string | null): string | undefined {
  return value === null || value === "" ? undefined : value;
}

/** Routes a GET of the UI (path below the mount point) to its view. */
export function routeUi(data: UiData, ctx: ViewContext, path: string, query: URLSearchParams, scope: ReadScope): UiReply {
  if (path === "/assets/ui.css") return { status: 200, body: STYLESHEET, contentType: "text/css; charset=utf-8" };
  if (path === "/assets/ui.js") return { status: 200, body: SCRIPT, contentType: "text/javascript; charset=utf-8" };
  if (path === "/assets/icon.svg" || path === "/favicon.ico") return { status: 200, body: ICON, contentType: "image/svg+xml" };
  if (path === "/" || path === "") {
    const status = optional(query.get("status"));
    const filter = {
      ...(optional(query.get("pipeline")) ? { pipeline: query.get("pipeline")! } : {}),
      ...(status && (RUN_STATUSES as readonly string[]).includes(status) ? { status } : {}),
      ...(query.get("before") ? { before: count(query.get("before")) } : {}),
    };
    const { rows, nextBefore } = data.runs({ ...filter, limit: RUNS_PAGE }, scope);
    return { status: 200, html: runsView(ctx, data.pipelines(scope), filter, rows, nextBefore) };
  }
  if (path === "/charts") {
    const pipelines = data.pipelines(scope);
    const pipeline = optional(query.get("pipeline")) ?? pipelines[0];
    return { status: 200, html: chartsView(ctx, pipelines, pipeline, pipeline ? data.series(pipeline, CHART_RUNS, scope) : []) };
  }
  if (path === "/history") {
    const url = query.get("url") ?? "";
    const versions = url ? data.history(url, scope) : [];
    const layout = readLayout(query.get("view"));
    let a = query.get("a") ? count(query.get("a")) : undefined;
    let b = query.get("b") ? count(query.get("b")) : undefined;
    if (a === undefined && b === undefined && versions.length >= 2) {
      // By default the newest version of the first tag against the one before it.
      const line = versions.filter((v) => v.tag === versions[0]!.tag);
      if (line.length >= 2) [a, b] = [line[line.length - 2]!.id, line[line.length - 1]!.id];
    }
    const diff = a !== undefined && b !== undefined ? data.compare(url, a, b, scope) : undefined;
    return { status: 200, html: historyView(ctx, url, versions, { ...(a !== undefined ? { a } : {}), ...(b !== undefined ? { b } : {}), layout }, diff) };
  }
  if (path === "/monitors" || path === "/monitors/") return { status: 200, html: monitorsView(ctx, data.monitors(scope)) };
  const monitor = /^\/monitors\/(\d+)\/?$/.exec(path);
  if (monitor) {
    const found = data.monitor(Number(monitor[1]), MONITOR_CHECKS, scope);
    if (!found) return { status: 404, html: notFound(ctx, `No monitor #${monitor[1]}.`) };
    return { status: 200, html: monitorView(ctx, found.monitor, found.checks) };
  }
  if (path === "/asset") {
    const run = query.get("run");
    const from = run !== null && /^\d+$/.test(run) ? { runId: Number(run), stepId: query.get("step") ?? "", url: query.get("url") ?? "" } : undefined;
    const asset = data.asset(query.get("ref") ?? "", scope, from);
    if (!asset) return { status: 404, html: notFound(ctx, "No such stored file.") };
    return { status: 200, body: asset.bytes, contentType: asset.mediaType, download: !INLINE_MEDIA.has(asset.mediaType) };
  }
  const run = /^\/runs\/(\d+)(\/changes|\/doc|\/preview)?\/?$/.exec(path);
  if (run) {
    const runId = Number(run[1]);
    if (run[2] === "/changes") {
      const status = optional(query.get("status"));
      const filter = { ...(status && (CHANGE_FILTERS as readonly string[]).includes(status) ? { status } : {}), offset: count(query.get("offset")) };
      const result = data.changes(runId, { ...filter, limit: CHANGES_PAGE_SIZE }, scope);
      if (!result) return { status: 404, html: notFound(ctx, `No run #${runId}.`) };
      return { status: 200, html: changesView(ctx, runId, { ...filter, layout: readLayout(query.get("view")) }, result) };
    }
    if (run[2] === "/preview") {
      const found = data.document(runId, query.get("step") ?? "", query.get("url") ?? "", scope);
      const stored = found?.document.html ?? found?.document.rawHtml;
      if (stored === undefined) return { status: 404, html: notFound(ctx, "No HTML was stored for this page.") };
      return { status: 200, body: stored, contentType: "text/html; charset=utf-8", preview: true };
    }
    if (run[2] === "/doc") {
      const stepId = query.get("step") ?? "";
      const url = query.get("url") ?? "";
      const found = data.document(runId, stepId, url, scope);
      if (!found) return { status: 404, html: notFound(ctx, `Run #${runId} stored no page ${url} in step ${stepId}.`) };
      return { status: 200, html: documentView(ctx, runId, stepId, url, found, readLayout(query.get("view"))) };
    }
    const view = data.run(runId, scope);
    if (!view) return { status: 404, html: notFound(ctx, `No run #${runId}.`) };
    const pagedStep = query.get("step");
    const steps: StepPages[] = view.steps.map((s) => {
      const offset = s.stepId === pagedStep ? count(query.get("offset")) : 0;
      return { stepId: s.stepId, offset, ...data.stepPages(runId, s.stepId, offset, PAGE_SIZE) };
    });
    const foffset = count(query.get("foffset"));
    const failures = { offset: foffset, ...data.failures(runId, foffset, PAGE_SIZE) };
    const kept: Record<string, string | undefined> = { step: optional(query.get("step")), offset: optional(query.get("offset")), foffset: optional(query.get("foffset")) };
    return { status: 200, html: runView(ctx, view, steps, failures, kept) };
  }
  return { status: 404, html: notFound(ctx, "There is no such page.") };
}
