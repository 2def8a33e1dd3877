import type { IncomingMessage, ServerResponse } from "node:http";
import { FixtureSite } from "./site.js";

/** A result as SearXNG's JSON API gives it (the recorded shape, trimmed to what varies). */
export interface FakeResult {
  url: string;
  title: string;
  content?: string;
  publishedDate?: string | null;
  img_src?: string;
  thumbnail_src?: string;
  thumbnail?: string;
  resolution?: string;
}

export interface FakeSearxngOptions {
  /** Results of each category (general, news, images), served `perPage` a page. */
  results?: Partial<Record<"general" | "news" | "images", FakeResult[]>>;
  perPage?: number;
  /** Engines reported in unresponsive_engines on every page. */
  failing?: Array<[string, string]>;
  /** 403 to format=json, as SearXNG does when JSON is not in its search.formats. */
  jsonDisabled?: boolean;
  /** Holds every answer this long (for timeouts). */
  delayMs?: number;
  /** Answers the first this many requests with 502 Bad Gateway (a proxy in front of it restarting). */
  failFirst?: number;
}

/**
 * A SearXNG stand-in on 127.0.0.1: GET /search?format=json answers in SearXNG's JSON shape, page
 * by page (pageno), per category; every request's query is kept for assertions.
 */
export class FakeSearxng {
  readonly requests: URLSearchParams[] = [];
  private readonly site = new FixtureSite();

  constructor(readonly options: FakeSearxngOptions = {}) {
    this.site.route("/search", (req, res) => this.answer(req, res));
  }

  get url(): string {
    return this.site.url;
  }

  async start(): Promise<this> {
    await this.site.start();
    return this;
  }

  stop(): Promise<void> {
    return this.site.stop();
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const params = new URL(req.url ?? "/", "http://x").searchParams;
    this.requests.push(params);
    if (this.options.delayMs) await new Promise((resolve) => setTimeout(resolve, this.options.delayMs));
    if (this.requests.length <= (this.options.failFirst ?? 0)) {
      res.writeHead(502, { "content-type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
      return;
    }
    if (params.get("format") === "json" && this.options.jsonDisabled) {
      res.writeHead(403, { "content-type": "text/html" }).end("<title>403 Forbidden</title><h1>Forbidden</h1>");
      return;
    }
    const category = (params.get("categories") ?? "general") as "general" | "news" | "images";
    const perPage = this.options.perPage ?? 10;
    const page = Number(params.get("pageno") ?? "1");
    const all = this.options.failing && !this.options.results ? [] : (this.options.results?.[category] ?? []);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const body = {
      query: params.get("q"),
      number_of_results: 0,
      results: slice.map((r, i) => ({
        template: category === "images" ? "images.html" : "default.html",
        engine: "duckduckgo",
        engines: ["duckduckgo", "brave"],
        positions: [i + 1],
        score: 2 / (i + 1),
        category,
        parsed_url: ["https", new URL(r.url).host, new URL(r.url).pathname, "", "", ""],
        ...r,
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: ["related query"],
      unresponsive_engines: this.options.failing ?? [],
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  }
}

/** `n` web results on `base` (a fixture site), paths /r1, /r2, … */
export function webResults(base: string, n: number, prefix = "r"): FakeResult[] {
  return Array.from({ length: n }, (_, i) => ({ url: `${base}/${prefix}${i + 1}`, title: `Result ${i + 1}`, content: `About result ${i + 1}` }));
}
