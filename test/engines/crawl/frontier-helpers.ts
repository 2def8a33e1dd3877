import type { CrawlRequest } from "../../../src/core/index.js";
import { CrawlFrontier, type FrontierEntry } from "../../../src/engines/local/crawl/index.js";
import { crawlRequest } from "./helpers.js";

export const START = "http://site.test/";

/** A frontier for a crawl of `url`, seeded with it. */
export function frontier(overrides: Partial<CrawlRequest> = {}, url = START): CrawlFrontier {
  const f = new CrawlFrontier(crawlRequest(url, overrides));
  f.seed([url]);
  return f;
}

/** Everything the frontier hands out, marking each done. */
export function drain(f: CrawlFrontier): FrontierEntry[] {
  const out: FrontierEntry[] = [];
  for (let e = f.next(); e; e = f.next()) {
    out.push(e);
    f.done(e.url);
  }
  return out;
}

export const urls = (f: CrawlFrontier) => drain(f).map((e) => e.url);
