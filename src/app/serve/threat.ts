import type { Team, ThreatProtectionOverride } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

const RULE_KEYS = ["mode", "riskScoreThreshold", "blacklist", "whitelist", "blockedTlds", "failurePolicy"] as const;

/**
 * The threat-protection rules a request runs under (SPEC.md ThreatProtectionOverride): the
 * team's policy, with the fields a request override provides replacing the team's for this
 * request only. Rejected (403, kind blocked) when the request overrides and the feature is not
 * enabled for the team or overrides are disabled, and when mode is off while the team enforces
 * threat protection. Undefined when the feature is off for the team.
 */
export function effectiveThreatPolicy(team: Team, override: ThreatProtectionOverride | undefined): ThreatProtectionOverride | undefined {
  const policy = team.threatPolicy;
  if (override !== undefined) {
    if (!policy.enabled) throw new ScrapelineError("blocked", "Threat protection is not enabled for this team; a threatProtection override is not allowed");
    if (!policy.overridesAllowed) throw new ScrapelineError("blocked", "Threat protection overrides are disabled by this team's organisation");
  }
  if (!policy.enabled) return undefined;
  const merged: ThreatProtectionOverride = {};
  for (const key of RULE_KEYS) {
    const value = override?.[key] ?? policy[key];
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  if (policy.enforced && merged.mode === "off") throw new ScrapelineError("blocked", "Threat protection is enforced for this team; mode cannot be off");
  if (policy.enforced && merged.mode === undefined) merged.mode = "normal";
  return merged;
}
