import type { ThreatProtectionOverride } from "../../core/index.js";
import { domainMatches, ScrapelineError } from "../../core/index.js";

/**
 * The web-risk classifier of `mode: normal`: the risk score (0-100) of a host, undefined when it
 * knows nothing of it. Throws when it cannot answer (unreachable, unreadable list).
 */
export type RiskClassifier = (host: string) => number | undefined;

/** A verdict at or above this blocks when the policy sets no riskScoreThreshold. */
export const DEFAULT_RISK_SCORE_THRESHOLD = 50;

/**
 * Enforces a threat-protection policy before anything is fetched: the whitelist wins over every
 * other rule, then the blacklist and blocked TLDs, then (mode normal) the web-risk classifier.
 * Without a classifier, or when it cannot answer, `failurePolicy` decides (closed blocks, open
 * allows).
 */
export function checkThreatProtection(url: string, policy: ThreatProtectionOverride | undefined, classifier?: RiskClassifier): void {
  if (!policy) return;
  const host = new URL(url).hostname.toLowerCase();
  if (policy.whitelist?.some((d) => domainMatches(host, d))) return;
  const listed = policy.blacklist?.find((d) => domainMatches(host, d));
  if (listed) throw new ScrapelineError("blocked", `${host} is blocked by threatProtection.blacklist (${listed})`, { url });
  const tld = host.split(".").pop() ?? "";
  if (policy.blockedTlds?.includes(tld)) throw new ScrapelineError("blocked", `.${tld} is blocked by threatProtection.blockedTlds`, { url });
  if (policy.mode !== "normal") return;
  let score: number | undefined;
  try {
    if (!classifier) throw new Error("no web-risk list is configured");
    score = classifier(host);
  } catch (error) {
    if (policy.failurePolicy === "closed") {
      throw new ScrapelineError("blocked", `threatProtection mode normal could not check ${host} (${(error as Error).message}) and failurePolicy is closed`, { url });
    }
    return;
  }
  const threshold = policy.riskScoreThreshold ?? DEFAULT_RISK_SCORE_THRESHOLD;
  if (score !== undefined && score >= threshold) {
    throw new ScrapelineError("blocked", `${host} has a web-risk score of ${score}, at or above the threshold ${threshold}`, { url });
  }
}
