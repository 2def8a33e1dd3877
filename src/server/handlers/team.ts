import type { TokenUsage, UsagePeriod } from "../../app/index.js";
import type { Reply, RequestContext, Route } from "../router.js";

/** Token usage failures carry success: false (SPEC.md). */
function usage(ctx: RequestContext, scope: "all" | "extract", shape: (u: TokenUsage) => Record<string, unknown>): Reply {
  let result: TokenUsage;
  try {
    result = ctx.service.tokenUsage(ctx.team, scope);
  } catch {
    return { status: 500, body: { error: "internal error while fetching token usage", success: false } };
  }
  if (!result) return { status: 404, body: { error: "token usage information could not be found", success: false } };
  return { status: 200, body: { data: shape(result), success: true } };
}

/** The team's billing periods; per key is not kept (every key of a team shares its usage), so `byApiKey` changes nothing. */
function history(ctx: RequestContext, shape: (p: UsagePeriod) => Record<string, unknown>): Reply {
  return { status: 200, body: { success: true, periods: ctx.service.usageHistory(ctx.team).map(shape) } };
}

/** v1 reports the usage of Extract only, v2 of every endpoint (SPEC.md). */
export const teamRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/team/token-usage",
    auth: true,
    limited: false,
    handle: (ctx) =>
      usage(ctx, "extract", (u) => ({ billing_period_start: u.billingPeriodStart, billing_period_end: u.billingPeriodEnd, plan_tokens: u.planTokens, remaining_tokens: u.remainingTokens })),
  },
  {
    method: "GET",
    path: "/v2/team/token-usage",
    auth: true,
    limited: false,
    handle: (ctx) => usage(ctx, "all", (u) => ({ billingPeriodStart: u.billingPeriodStart, billingPeriodEnd: u.billingPeriodEnd, planTokens: u.planTokens, remainingTokens: u.remainingTokens })),
  },
  { method: "GET", path: "/v2/team/credit-usage", auth: true, limited: false, handle: (ctx) => ({ status: 200, body: { success: true, data: ctx.service.creditUsage(ctx.team) } }) },
  { method: "GET", path: "/v2/team/credit-usage/historical", auth: true, limited: false, handle: (ctx) => history(ctx, (p) => ({ startDate: p.startDate, endDate: p.endDate, creditsUsed: p.creditsUsed })) },
  { method: "GET", path: "/v2/team/token-usage/historical", auth: true, limited: false, handle: (ctx) => history(ctx, (p) => ({ startDate: p.startDate, endDate: p.endDate, tokensUsed: p.tokensUsed })) },
  {
    method: "GET",
    path: "/v2/team/queue-status",
    auth: true,
    limited: false,
    // Work over the team's limit is refused (429), never queued: every job in the queue is active.
    handle: (ctx) => {
      const load = ctx.service.load(ctx.team);
      return { status: 200, body: { success: true, jobsInQueue: load.active, activeJobsInQueue: load.active, waitingJobsInQueue: 0, maxConcurrency: load.max, mostRecentSuccess: load.lastSuccess } };
    },
  },
  {
    method: "GET",
    path: "/v2/concurrency-check",
    auth: true,
    limited: false,
    handle: (ctx) => {
      const load = ctx.service.load(ctx.team);
      return { status: 200, body: { success: true, concurrency: load.active, maxConcurrency: load.max } };
    },
  },
];
