import { creditUsageV1, jobStatusV1, mapV1, scrapeV1, searchV1, startBatchV1, startCrawlV1, startExtractV1, v1StatusPage, V1_RETIRED, type V2Service } from "../../app/index.js";
import type { Reply, RequestContext, Route } from "../router.js";
import { page, statusBody } from "./jobs.js";

/** The v1 API over the v2 use cases (src/app/serve/v1.ts translates); GET /v1/extract/{id} and /v1/team/token-usage are with their v2 routes. */

const v2 = (ctx: RequestContext): V2Service => ctx.service;

const warned = (warning: string | undefined) => (warning ? { warning } : {});

function retired(path: string, name: string): Route[] {
  const reply = (): Reply => ({ status: 404, body: { success: false, error: `${path} is not served: ${V1_RETIRED[name]}` } });
  return [
    { method: "POST", path, auth: true, limited: false, handle: reply },
    { method: "GET", path: `${path}/:id`, auth: true, limited: false, handle: reply },
  ];
}

export const v1Routes: Route[] = [
  {
    method: "POST",
    path: "/v1/scrape",
    auth: true,
    limited: true,
    handle: async (ctx) => ({ status: 200, body: { success: true, data: await scrapeV1(v2(ctx), ctx.team, ctx.body) } }),
  },
  {
    method: "POST",
    path: "/v1/map",
    auth: true,
    limited: true,
    handle: async (ctx) => ({ status: 200, body: { success: true, ...(await mapV1(v2(ctx), ctx.team, ctx.body)) } }),
  },
  {
    method: "POST",
    path: "/v1/search",
    auth: true,
    limited: true,
    handle: async (ctx) => ({ status: 200, body: { success: true, ...(await searchV1(v2(ctx), ctx.team, ctx.body)) } }),
  },
  {
    method: "POST",
    path: "/v1/crawl",
    auth: true,
    limited: true,
    handle: (ctx) => {
      const { id, warning } = startCrawlV1(v2(ctx), ctx.team, ctx.body);
      return { status: 200, body: { success: true, id, url: `${ctx.baseUrl}/v1/crawl/${id}`, ...warned(warning) } };
    },
  },
  {
    method: "GET",
    path: "/v1/crawl/active",
    auth: true,
    limited: false,
    handle: ({ service, team }) => ({ status: 200, body: { success: true, crawls: service.activeCrawls(team) } }),
  },
  {
    method: "GET",
    path: "/v1/crawl/:id",
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: statusBody(ctx, jobStatusV1(v2(ctx), ctx.team, ctx.params.id!, page(ctx))) }),
  },
  {
    method: "GET",
    path: "/v1/crawl/:id/errors",
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: { success: true, ...ctx.service.jobErrors(ctx.team, "crawl", ctx.params.id!) } }),
  },
  {
    method: "POST",
    path: "/v1/batch/scrape",
    auth: true,
    limited: true,
    handle: (ctx) => {
      const { id, invalidURLs, warning } = startBatchV1(v2(ctx), ctx.team, ctx.body);
      return { status: 200, body: { success: true, id, url: `${ctx.baseUrl}/v1/batch/scrape/${id}`, ...(invalidURLs ? { invalidURLs } : {}), ...warned(warning) } };
    },
  },
  {
    method: "GET",
    path: "/v1/batch/scrape/:id",
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: statusBody(ctx, v1StatusPage(ctx.service.jobStatus(ctx.team, "batch", ctx.params.id!, page(ctx)), ctx.params.id!)) }),
  },
  {
    method: "GET",
    path: "/v1/batch/scrape/:id/errors",
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: { success: true, ...ctx.service.jobErrors(ctx.team, "batch", ctx.params.id!) } }),
  },
  {
    method: "GET",
    path: "/v1/team/credit-usage",
    auth: true,
    limited: false,
    handle: (ctx) => ({ status: 200, body: { success: true, data: creditUsageV1(v2(ctx), ctx.team) } }),
  },
  {
    method: "POST",
    path: "/v1/extract",
    auth: true,
    limited: true,
    handle: (ctx) => ({ status: 200, body: { success: true, ...startExtractV1(v2(ctx), ctx.team, ctx.body) } }),
  },
  ...retired("/v1/deep-research", "deep-research"),
  ...retired("/v1/llmstxt", "llmstxt"),
];

