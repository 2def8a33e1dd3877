import type { ThreatProtectionOverride } from "./types.js";

/**
 * A team's threat-protection policy (SPEC.md ThreatProtectionOverride): whether the feature is on
 * for the team, whether it is enforced (mode may not be off), whether requests may override it,
 * and the organisation's rule values a request override replaces field by field.
 */
export interface ThreatPolicy extends ThreatProtectionOverride {
  enabled: boolean;
  enforced: boolean;
  overridesAllowed: boolean;
}

/** A team of `scrapeline serve`: its plan (tokens per billing period) and limits. */
export interface Team {
  id: number;
  name: string;
  planTokens: number;
  periodDays: number;
  /** Start of the first billing period (ISO); periods follow one another every periodDays. */
  periodStart: string;
  /** Work-starting requests per minute. */
  rateLimit: number;
  /** Crawl, batch and extract jobs running at the same time. */
  maxConcurrentJobs: number;
  threatPolicy: ThreatPolicy;
  createdAt: string;
}

/** An API key as listed: never the key itself. */
export interface ApiKeyRecord {
  id: number;
  team: string;
  /** The first characters of the key, enough to recognise it. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export type ServeJobKind = "crawl" | "batch" | "scrape" | "map" | "extract" | "parse" | "search" | "agent";
export type ServeJobStatus = "scraping" | "completed" | "failed" | "cancelled";

export interface ServeJob {
  id: string;
  teamId: number;
  kind: ServeJobKind;
  runId: number | null;
  status: ServeJobStatus;
  url: string | null;
  total: number | null;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}
