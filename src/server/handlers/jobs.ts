import type { JobStatusPage } from "../../app/index.js";
import { isScrapelineError } from "../../core/index.js";
import { errorReply } from "../errors.js";
import type { Reply, RequestContext, Route } from "../router.js";

type JobKind = "crawl" | "batch";

const PATH: Record<JobKind, string> = { crawl: "/v2/crawl", batch: "/v2/batch/scrape" };

export function page(ctx: RequestContext): { skip?: number; limit?: number } {
  const number = (name: string) => {
    const raw = ctx.query.get(name);
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const skip = number("skip");
  const limit = number("limit");
  return { ...(skip !== undefined ? { skip } : {}), ...(limit !== undefined ? { limit } : {}) };
}

/** The status body: `next` is the absolute URL of the following page, kept on the version asked. */
export function statusBody(ctx: RequestContext, status: JobStatusPage): Record<string, unknown> {
  const { nextSkip, error, ...rest } = status;
  const body: Record<string, unknown> = { success: true, ...rest };
  if (nextSkip !== undefined) {
    const query = new URLSearchParams(ctx.query);
    query.set("skip", String(nextSkip));
    body.next = `${ctx.baseUrl}${ctx.path}?${query.toString()}`;
  }
  if (error) body.error = error;
  return body;
}

function errorsRoute(kind: JobKind): Route {
  return {
    method: "GET",
    path: `${PATH[kind]}/:id/errors`,
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: { success: true, ...ctx.service.jobErrors(ctx.team, kind, ctx.params.id!) } }),
  };
}

function statusRoute(kind: JobKind, prefix = PATH[kind]): Route {
  return {
    method: "GET",
    path: `${prefix}/:id`,
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: statusBody(ctx, ctx.service.jobStatus(ctx.team, kind, ctx.params.id!, page(ctx))) }),
  };
}

/** DELETE answers `{status: "cancelled"}`; failures are bare `{error}` bodies (SPEC.md). */
function cancelRoute(kind: JobKind, prefix: string): Route {
  return {
    method: "DELETE",
    path: `${prefix}/:id`,
    auth: true,
    limited: false,
    handle: (ctx): Reply => {
      try {
        ctx.service.cancelJob(ctx.team, kind, ctx.params.id!);
        return { status: 200, body: { status: "cancelled" } };
      } catch (error) {
        if (isScrapelineError(error, "not-found")) return { status: 404, body: { error: kind === "crawl" ? "crawl job not found" : "batch scrape job not found" } };
        return errorReply(error, "bare");
      }
    },
  };
}

/** Crawl and batch scrape: start, poll the status page by page, cancel. */
export const jobRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/crawl/params-preview",
    auth: true,
    limited: true,
    handle: ({ service, body }) => ({ status: 200, body: { success: true, data: service.previewCrawl(body) } }),
  },
  {
    method: "POST",
    path: "/v2/crawl",
    auth: true,
    limited: true,
    handle: ({ service, team, body, baseUrl }) => {
      const { id, warning } = service.startCrawl(team, body);
      return { status: 200, body: { success: true, id, url: `${baseUrl}/v2/crawl/${id}`, ...(warning ? { warning } : {}) } };
    },
  },
  ...["/v2/crawl/active", "/v2/crawl/ongoing"].map(
    (path): Route => ({ method: "GET", path, auth: true, limited: false, handle: ({ service, team }) => ({ status: 200, body: { success: true, crawls: service.activeCrawls(team) } }) }),
  ),
  statusRoute("crawl"),
  errorsRoute("crawl"),
  cancelRoute("crawl", "/v2/crawl"),
  cancelRoute("crawl", "/v1/crawl"),
  {
    method: "POST",
    path: "/v2/batch/scrape",
    auth: true,
    limited: true,
    handle: ({ service, team, body, baseUrl }) => {
      const { id, invalidURLs, warning } = service.startBatch(team, body);
      return { status: 200, body: { success: true, id, url: `${baseUrl}/v2/batch/scrape/${id}`, ...(invalidURLs ? { invalidURLs } : {}), ...(warning ? { warning } : {}) } };
    },
  },
  statusRoute("batch"),
  errorsRoute("batch"),
  cancelRoute("batch", "/v2/batch/scrape"),
  cancelRoute("batch", "/v1/batch/scrape"),
];
