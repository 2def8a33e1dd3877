/** The product token scrapeline looks for in `User-agent` lines. */
export const ROBOTS_USER_AGENT = "scrapeline";

/** One Allow or Disallow line: its pattern as written (percent-encoding normalized). */
export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

/** What a robots.txt says for one user agent, plus the file-wide Sitemap lines. */
export interface RobotsRules {
  rules: RobotsRule[];
  crawlDelaySeconds?: number;
  sitemaps: string[];
}

interface Group {
  agents: string[];
  rules: RobotsRule[];
  crawlDelay?: number;
}

/**
 * Parses robots.txt (RFC 9309 with the common `Crawl-delay` and `Sitemap` extensions). Groups
 * naming `userAgent` are used (all of them, merged), else the `*` groups; consecutive
 * `User-agent` lines share one group. Unknown lines and lines without a colon are ignored.
 */
export function parseRobots(text: string, userAgent = ROBOTS_USER_AGENT): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/_/g, "-");
    const value = line.slice(colon + 1).trim();
    if (key === "sitemap" || key === "site-map") {
      if (value !== "") sitemaps.push(value);
      continue;
    }
    if (key === "user-agent") {
      if (!lastWasAgent || !current) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === "allow" || key === "disallow") {
      // An empty Disallow allows everything, which is the default anyway.
      if (value !== "") current.rules.push({ allow: key === "allow", pattern: normalizePattern(value) });
    } else if (key === "crawl-delay") {
      const seconds = Number(value);
      if (current.crawlDelay === undefined && value !== "" && Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
    }
  }
  const token = userAgent.toLowerCase();
  const named = groups.filter((g) => g.agents.some((agent) => productToken(agent) === token));
  const chosen = named.length > 0 ? named : groups.filter((g) => g.agents.includes("*"));
  const result: RobotsRules = { rules: chosen.flatMap((g) => g.rules), sitemaps };
  const delay = chosen.find((g) => g.crawlDelay !== undefined)?.crawlDelay;
  if (delay !== undefined) result.crawlDelaySeconds = delay;
  return result;
}

/**
 * Whether `pathAndQuery` (the URL path plus `?query`, percent-encoded) may be fetched: the rule
 * with the longest pattern that matches decides, Allow wins a tie, and no match allows.
 * `/robots.txt` itself is always allowed.
 */
export function isAllowed(rules: readonly RobotsRule[], pathAndQuery: string): boolean {
  const path = normalizePercent(pathAndQuery);
  if (path === "/robots.txt") return true;
  let best: RobotsRule | undefined;
  for (const rule of rules) {
    if (best && (rule.pattern.length < best.pattern.length || (rule.pattern.length === best.pattern.length && best.allow))) continue;
    if (matches(rule.pattern, path)) best = rule;
  }
  return best?.allow ?? true;
}

/** The name part of a User-agent value: `Scrapeline/1.0 (+url)` → `scrapeline`. */
function productToken(agent: string): string {
  return agent.split(/[\s/]/, 1)[0] ?? "";
}

/** Percent-encodes what a browser would (non-ASCII, spaces) and upper-cases escape hex digits. */
function normalizePattern(pattern: string): string {
  const encoded = pattern.replace(/[^\x21-\x7e]+/g, (run) => {
    try {
      return encodeURIComponent(run);
    } catch {
      return run;
    }
  });
  return normalizePercent(encoded);
}

function normalizePercent(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/**
 * Glob match where `*` is any run of characters and a final `$` anchors the end; otherwise the
 * pattern matches a prefix. Iterative with one backtrack point, so it stays O(pattern × path)
 * whatever the pattern.
 */
function matches(pattern: string, path: string): boolean {
  let glob = pattern;
  if (glob.endsWith("$")) glob = glob.slice(0, -1);
  else glob += "*";
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < path.length) {
    const g = glob.charCodeAt(p);
    if (p < glob.length && g !== 42 /* * */ && g === path.charCodeAt(s)) {
      p++;
      s++;
    } else if (p < glob.length && g === 42) {
      star = p++;
      mark = s;
    } else if (star !== -1) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < glob.length && glob.charCodeAt(p) === 42) p++;
  return p === glob.length;
}
