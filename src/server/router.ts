import type { IncomingMessage } from "node:http";
import type { ServeService } from "../app/index.js";
import { ScrapelineError, type Team } from "../core/index.js";

/** What a handler answers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RequestContext {
  req: IncomingMessage;
  service: ServeService;
  /** The authenticated team (routes with auth: false get none). */
  team: Team;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request's path (without query); the request target may be absolute-form, so never use req.url for links. */
  path: string;
  /** The parsed JSON body (POST, PATCH); undefined otherwise. */
  body: unknown;
  /** The server's public base URL (--public-url, else the address it listens on), for absolute URLs in answers. */
  baseUrl: string;
}

export interface Route {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  /** A path with `:name` parameters, e.g. /v2/crawl/:id */
  path: string;
  /** Bearer key required (every route but /health). */
  auth: boolean;
  /** Counts against the team's request rate (work-starting requests). */
  limited: boolean;
  handle: (ctx: RequestContext) => Promise<Reply> | Reply;
  /** The handler reads the request body itself (a multipart upload); no JSON body is read for it. */
  rawBody?: boolean;
  /** A body larger than the JSON limit the route takes, and its 413 (answered before 100 Continue). */
  bodyLimit?: { bytes: number; tooLarge: Reply };
}

interface Compiled extends Route {
  pattern: RegExp;
  names: string[];
}

/** A route table: method and path to handler, with path parameters. */
export class Router {
  private readonly routes: Compiled[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      this.routes.push({ ...route, pattern: new RegExp(`^${source}/?$`), names });
    }
    return this;
  }

  /** The route for a request, with its path parameters still percent-encoded (decodeParams, after authentication); `methodNotAllowed` when the path exists under another method. */
  match(method: string, path: string): { route: Compiled; params: Record<string, string> } | { methodNotAllowed: boolean } {
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (route.method !== method) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = m[i + 1]!));
      return { route, params };
    }
    return { methodNotAllowed: pathKnown };
  }
}

/** Path parameters decoded; a malformed percent-encoding is a 400. */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      throw new ScrapelineError("invalid-input", `Bad request: the path has a malformed percent-encoding in ${JSON.stringify(value)}`);
    }
  }
  return out;
}
