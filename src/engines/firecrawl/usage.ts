import { ScrapelineError } from "../../core/index.js";
import type { ServiceHttp } from "./http.js";

/** The team's token usage, from /v2/team/token-usage (camelCase) or /v1 (snake_case). */
export interface ServiceUsage {
  remainingTokens: number;
  planTokens?: number;
  billingPeriodStart?: string;
  billingPeriodEnd?: string;
  /** Which endpoint answered. */
  source: "v1" | "v2";
}

type Record_ = Record<string, unknown>;

/** Reads the v2 endpoint, and the v1 endpoint when v2 is not there; both shapes are understood. */
export async function readUsage(http: ServiceHttp, signal?: AbortSignal): Promise<ServiceUsage> {
  try {
    return parseUsage(await http.call<Record_>("GET", "/v2/team/token-usage", { what: "the team's token usage", attempts: 3, ...(signal ? { signal } : {}) }), "v2");
  } catch (error) {
    if (!(error instanceof ScrapelineError) || error.status !== 404) throw error;
    return parseUsage(await http.call<Record_>("GET", "/v1/team/token-usage", { what: "the team's token usage", attempts: 3, ...(signal ? { signal } : {}) }), "v1");
  }
}

export function parseUsage(body: Record_, source: "v1" | "v2"): ServiceUsage {
  const data = (body["data"] ?? {}) as Record_;
  const pick = (camel: string, snake: string): unknown => data[camel] ?? data[snake];
  const remaining = pick("remainingTokens", "remaining_tokens");
  if (typeof remaining !== "number") throw new ScrapelineError("bad-content", `the service's token usage has no remaining tokens${typeof body["error"] === "string" ? `: ${body["error"]}` : ""}`);
  const out: ServiceUsage = { remainingTokens: remaining, source };
  const plan = pick("planTokens", "plan_tokens");
  const start = pick("billingPeriodStart", "billing_period_start");
  const end = pick("billingPeriodEnd", "billing_period_end");
  if (typeof plan === "number") out.planTokens = plan;
  if (typeof start === "string") out.billingPeriodStart = start;
  if (typeof end === "string") out.billingPeriodEnd = end;
  return out;
}
