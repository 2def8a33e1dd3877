/**
 * The domain patterns of threat protection's lists: a plain domain (`example.com`) covers itself
 * and its subdomains, a wildcard (`*.example.com`) only its subdomains.
 */
export function domainMatches(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith("*.")) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p || host.endsWith(`.${p}`);
}

/** Whether a URL's host is on a whitelist: such a URL is allowed without a web-risk scan. */
export function whitelisted(url: string, whitelist: readonly string[] | undefined): boolean {
  if (!whitelist?.length) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return whitelist.some((d) => domainMatches(host, d));
}
