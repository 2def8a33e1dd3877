import { readFileSync, statSync } from "node:fs";
import { domainMatches } from "../../core/index.js";
import type { RiskClassifier } from "./threat-protection.js";

interface Entry {
  domain: string;
  score: number;
}

/**
 * A web-risk classifier over a local list the operator supplies: one `domain score` per line
 * (`#` comments, plain or `*.` wildcard domains, scores 0-100). The file is read again when it
 * changes; when it cannot be read the classifier throws, and the policy's failurePolicy decides.
 * A host's score is the highest of the entries it matches.
 */
export function fileRiskClassifier(path: string): RiskClassifier {
  let loaded: { mtimeMs: number; size: number; entries: Entry[] } | undefined;
  return (host) => {
    const stat = statSync(path);
    if (!loaded || loaded.mtimeMs !== stat.mtimeMs || loaded.size !== stat.size) {
      loaded = { mtimeMs: stat.mtimeMs, size: stat.size, entries: parseRiskList(readFileSync(path, "utf8")) };
    }
    let score: number | undefined;
    for (const entry of loaded.entries) if (domainMatches(host, entry.domain) && (score === undefined || entry.score > score)) score = entry.score;
    return score;
  };
}

export function parseRiskList(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const [domain, value] = line.split(/\s+/);
    const score = Number(value);
    if (domain && Number.isFinite(score)) entries.push({ domain: domain.toLowerCase(), score: Math.max(0, Math.min(100, score)) });
  }
  return entries;
}
