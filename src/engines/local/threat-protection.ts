import type { ThreatProtectionOverride } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

function domainMatches(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith("*.")) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p || host.endsWith(`.${p}`);
}

/**
 * Enforces a threat-protection override before anything is fetched: the whitelist wins over
 * every other rule, then the blacklist and blocked TLDs. The web-risk classifier of `mode:
 * normal` is a service feature; locally it is unreachable, so `failurePolicy` decides (closed
 * blocks, open allows).
 */
export function checkThreatProtection(url: string, policy: ThreatProtectionOverride | undefined): void {
  if (!policy) return;
  const host = new URL(url).hostname.toLowerCase();
  if (policy.whitelist?.some((d) => domainMatches(host, d))) return;
  const listed = policy.blacklist?.find((d) => domainMatches(host, d));
  if (listed) throw new ScrapelineError("blocked", `${host} is blocked by threatProtection.blacklist (${listed})`, { url });
  const tld = host.split(".").pop() ?? "";
  if (policy.blockedTlds?.includes(tld)) throw new ScrapelineError("blocked", `.${tld} is blocked by threatProtection.blockedTlds`, { url });
  if (policy.mode === "normal" && policy.failurePolicy === "closed") {
    throw new ScrapelineError("blocked", `threatProtection mode normal needs the service's web-risk classifier, which the local engine cannot reach, and failurePolicy is closed`, { url });
  }
}
