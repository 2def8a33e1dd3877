import type { TokenUsage } from "../../app/index.js";
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
];
