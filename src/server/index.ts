import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ServeService, type ServeOptions } from "../app/index.js";
import { BAD_JSON, errorReply } from "./errors.js";
import { extractRoutes } from "./handlers/extract.js";
import { jobRoutes } from "./handlers/jobs.js";
import { scrapeRoutes } from "./handlers/scrape.js";
import { parseRoutes } from "./handlers/parse.js";
import { searchRoutes } from "./handlers/search.js";
import { agentRoutes } from "./handlers/agent.js";
import { teamRoutes } from "./handlers/team.js";
import { browserRoutes } from "./handlers/browser.js";
import { monitorRoutes } from "./handlers/monitor.js";
import { v1Routes } from "./handlers/v1.js";
import { closeAfterAnswer } from "./closing.js";
import { applyConnectionLimits, checkingIntervalMs, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "./connections.js";
import { BodyTooLarge, MAX_BODY_BYTES, MalformedJson, readJson, send } from "./http.js";
import { IdempotencyKeys } from "./idempotency.js";
import { decodeParams, Router, type Reply } from "./router.js";
import { isUiPath, UiMount } from "../ui/mount.js";

export interface ServerOptions extends ServeOptions, ConnectionLimits {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /**
   * The address clients reach this server at (e.g. https://scrape.example.com behind a proxy):
   * the base of the absolute links in answers (a crawl's `url`, a status page's `next`). Without
   * it, links use the address the server listens on. Never taken from a request header.
   */
  publicUrl?: string;
}

export interface RunningServer {
  port: number;
  url: string;
  /** Stops accepting requests, lets those in flight finish, stops jobs (their pages stay stored), closes the database. */
  close: () => Promise<void>;
}

/** Every route of the service. */
export function serviceRouter(): Router {
  return new Router().add(...scrapeRoutes, ...jobRoutes, ...teamRoutes, ...extractRoutes, ...parseRoutes, ...searchRoutes, ...browserRoutes, ...monitorRoutes, ...agentRoutes, ...v1Routes);
}

/** Starts `scrapeline serve`: the service's HTTP interface over the local engine. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (options.publicUrl !== undefined) options = { ...options, publicUrl: publicBase(options.publicUrl) };
  /** Scheme, host and path prefix of the links in answers; set once the server listens. */
  let baseUrl = "";
  const service = new ServeService(options);
  const ui = new UiMount(options.db, (authorization) => service.authenticate(authorization), options.publicUrl);
  const router = serviceRouter();
  const idempotency = new IdempotencyKeys();
  let closing = false;
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...definedLimits(options) };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        const reply = errorReply(error);
        answer(req, res, reply);
      } else res.destroy();
    });
  };
  const server = createServer({ connectionsCheckingInterval: checkingIntervalMs(limits) }, onRequest);
  // A client that waits for 100 Continue before sending its body (curl above 1 MB) learns of a
  // body over the route's limit from the 413 itself, and never sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const refused = tooLarge(req);
    if (refused) return answer(req, res, refused);
    res.writeContinue();
    onRequest(req, res);
  });
  server.keepAliveTimeout = 5000;
  applyConnectionLimits(server, limits);

  /** The 413 of a request whose declared body is over its route's limit, or undefined. */
  function tooLarge(req: IncomingMessage): Reply | undefined {
    const declared = Number(req.headers["content-length"]);
    if (!Number.isFinite(declared) || declared <= MAX_BODY_BYTES) return undefined;
    const url = requestUrl(req.url);
    const found = url ? router.match(req.method ?? "GET", url.pathname) : undefined;
    const limit = found && "route" in found ? found.route.bodyLimit : undefined;
    if (!limit) return TOO_LARGE;
    return declared > limit.bytes ? limit.tooLarge : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url);
    if (!url) {
      send(res, 400, { success: false, error: "Bad request: the request target is not a valid path" });
      return;
    }
    const method = req.method ?? "GET";
    if (url.pathname === "/health" || url.pathname === "/") {
      send(res, 200, { status: "ok" });
      return;
    }
    if (!closing && isUiPath(url.pathname)) {
      ui.handle(req, res, url);
      return;
    }
    const reply = closing ? { status: 503, body: { success: false, error: "the server is shutting down" }, headers: { connection: "close" } } : await dispatch(req, method, url);
    answer(req, res, reply);
  }

  async function dispatch(req: IncomingMessage, method: string, url: URL): Promise<Reply> {
    const found = router.match(method, url.pathname);
    if (!("route" in found)) {
      return found.methodNotAllowed ? { status: 405, body: { success: false, error: `Method ${method} not allowed on ${url.pathname}` } } : { status: 404, body: { success: false, error: `Not found: ${method} ${url.pathname}` } };
    }
    const { route } = found;
    try {
      const team = service.authenticate(req.headers.authorization);
      const params = decodeParams(found.params);
      if (route.limited) service.takeRequest(team);
      const body = (method === "POST" || method === "PATCH") && !route.rawBody ? await readJson(req) : undefined;
      const work = async () => route.handle({ req, service, team, params, query: url.searchParams, path: url.pathname, body, baseUrl });
      const key = req.headers["x-idempotency-key"];
      if (method === "POST" && typeof key === "string" && key !== "") return await idempotency.run(team.id, key, `${method} ${route.path}`, work);
      return await work();
    } catch (error) {
      if (error instanceof MalformedJson) return BAD_JSON;
      if (error instanceof BodyTooLarge) return TOO_LARGE;
      return errorReply(error);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3002, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? "127.0.0.1";
  const listening = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  baseUrl = options.publicUrl ?? listening;
  let closed: Promise<void> | undefined;
  return {
    port,
    url: listening,
    close: () =>
      (closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await service.close();
        ui.close();
        server.closeAllConnections();
        await stopped;
      })()),
  };
}

const TOO_LARGE: Reply = { status: 413, body: { success: false, error: `Payload too large: request bodies are limited to ${MAX_BODY_BYTES} bytes (10 MiB)` }, headers: { connection: "close" } };

/** Sends a reply; one that closes the connection before the request's body was read lets the client read it first. */
function answer(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (reply.headers?.connection === "close" && !req.complete) closeAfterAnswer(req);
  send(res, reply.status, reply.body, reply.headers);
}

/** A public base URL without its trailing slash; anything but an absolute http(s) URL without query or fragment is refused. */
export function publicBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--public-url must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) {
    throw new Error(`--public-url must be an http(s) URL without credentials, query or fragment, got ${JSON.stringify(raw)}`);
  }
  return url.href.replace(/\/+$/, "");
}

/** The request target as a URL (only its path and query are used), or undefined when it is not one. */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}

function definedLimits(options: ConnectionLimits): ConnectionLimits {
  const out: ConnectionLimits = {};
  if (options.headersTimeoutMs !== undefined) out.headersTimeoutMs = options.headersTimeoutMs;
  if (options.requestTimeoutMs !== undefined) out.requestTimeoutMs = options.requestTimeoutMs;
  if (options.maxConnectionsPerClient !== undefined) out.maxConnectionsPerClient = options.maxConnectionsPerClient;
  return out;
}
