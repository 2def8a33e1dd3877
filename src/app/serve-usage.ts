import type { Team } from "../core/index.js";
import { TOKENS_PER_CREDIT } from "../credits/index.js";
import type { ServeTables } from "../store/index.js";

export interface TokenUsage {
  billingPeriodStart: string;
  billingPeriodEnd: string;
  planTokens: number;
  remainingTokens: number;
}

const DAY_MS = 24 * 3600_000;

/**
 * A team's plan and what is left of it in the billing period that holds `now`. `scope` extract
 * counts extract jobs only (v1: "Extract only"); all counts every endpoint (v2, and the credit
 * check of work-starting requests).
 */
export function teamUsage(tables: ServeTables, team: Team, now: number, scope: "all" | "extract"): TokenUsage {
  const periodMs = team.periodDays * DAY_MS;
  const origin = Date.parse(team.periodStart);
  const start = origin + Math.max(0, Math.floor((now - origin) / periodMs)) * periodMs;
  const startIso = new Date(start).toISOString();
  const credits = tables.creditsUsedSince(team.id, startIso, scope === "extract" ? ["extract"] : undefined);
  return { billingPeriodStart: startIso, billingPeriodEnd: new Date(start + periodMs).toISOString(), planTokens: team.planTokens, remainingTokens: Math.max(0, team.planTokens - TOKENS_PER_CREDIT * credits) };
}
