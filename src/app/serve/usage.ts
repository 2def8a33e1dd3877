import type { Team } from "../../core/index.js";
import { TOKENS_PER_CREDIT } from "../../credits/index.js";
import type { ServeTables } from "../../store/index.js";

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

/** GET /v2/team/credit-usage: the team's plan and what is left of it, in credits. */
export interface CreditUsage {
  remainingCredits: number;
  planCredits: number;
  billingPeriodStart: string;
  billingPeriodEnd: string;
}

export function creditUsage(usage: TokenUsage): CreditUsage {
  const { billingPeriodStart, billingPeriodEnd } = usage;
  return { remainingCredits: Math.floor(usage.remainingTokens / TOKENS_PER_CREDIT), planCredits: Math.floor(usage.planTokens / TOKENS_PER_CREDIT), billingPeriodStart, billingPeriodEnd };
}

export interface UsagePeriod {
  startDate: string;
  endDate: string;
  creditsUsed: number;
  tokensUsed: number;
}

/**
 * GET /v2/team/credit-usage/historical: what the team used in each billing period from its
 * creation to the current one, newest first (at most `max` periods).
 */
export function usageHistory(tables: ServeTables, team: Team, now: number, max = 24): UsagePeriod[] {
  const periodMs = team.periodDays * DAY_MS;
  const origin = Date.parse(team.periodStart);
  const current = Math.max(0, Math.floor((now - origin) / periodMs));
  const out: UsagePeriod[] = [];
  for (let i = current; i >= 0 && out.length < max; i--) {
    const startDate = new Date(origin + i * periodMs).toISOString();
    const endDate = new Date(origin + (i + 1) * periodMs).toISOString();
    const creditsUsed = tables.creditsUsedSince(team.id, startDate, undefined, endDate);
    out.push({ startDate, endDate, creditsUsed, tokensUsed: creditsUsed * TOKENS_PER_CREDIT });
  }
  return out;
}
