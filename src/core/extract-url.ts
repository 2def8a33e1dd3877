/**
 * The one rule for an entry of an extract's `urls` (SPEC.md Extract request: "URLs to extract
 * from, in glob format"), applied the same way whatever ignoreInvalidURLs says; that flag only
 * decides whether an invalid entry is skipped (and listed in invalidURLs) or fails the request.
 *
 * Valid: an absolute http(s) URL whose host is a domain name with a top-level domain, an IP
 * address or localhost, with `*` globs allowed in the path and query only (a glob is expanded
 * through a map of its site, so the site itself must be named).
 * Returns why an entry is invalid, or undefined when it is valid.
 */
export function extractUrlProblem(entry: string): string | undefined {
  const trimmed = entry.trim();
  const schemeEnd = trimmed.indexOf("://");
  if (schemeEnd < 0) return "not an absolute URL";
  const afterScheme = trimmed.slice(schemeEnd + 3);
  const authority = afterScheme.split(/[/?#]/, 1)[0]!;
  if (authority.includes("*")) return "a glob in the host (globs may only stand in the path)";
  let url: URL;
  try {
    url = new URL(trimmed.replace(/\*/g, "x"));
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol.slice(0, -1)}: URLs cannot be fetched`;
  const host = url.hostname;
  if (host === "") return "no host";
  if (host !== "localhost" && !host.startsWith("[") && !/^\d+\.\d+\.\d+\.\d+$/.test(host) && !/\.[a-z][a-z0-9-]*$/i.test(host.replace(/\.$/, ""))) return "the host has no top-level domain";
  return undefined;
}

/** The entries of an extract's urls split by extractUrlProblem, each list in request order. */
export function sortExtractUrls(entries: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) (extractUrlProblem(entry) === undefined ? valid : invalid).push(entry);
  return { valid, invalid };
}
