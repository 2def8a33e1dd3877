import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReadScope, UiData } from "../app/ui-data/index.js";
import { previewHeaders, securityHeaders } from "./headers.js";
import { escapeHtml } from "./html.js";
import { routeUi } from "./routes.js";

/**
 * Answers a request for the UI mounted at `base` ("" or "/ui"): GET and HEAD only, every answer
 * with the security headers. `path` is the request's path below the mount point.
 */
export function answerUi(data: UiData, req: IncomingMessage, res: ServerResponse, base: string, path: string, query: URLSearchParams, scope: ReadScope = {}): void {
  const headers = securityHeaders();
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD") {
    res.writeHead(405, { ...headers, allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("The UI only reads: GET or HEAD.\n");
    return;
  }
  let reply;
  try {
    reply = routeUi(data, { base }, path, query, scope);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    res.writeHead(500, { ...headers, "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Error</title><h1>Error</h1><p>${escapeHtml(message)}</p>`);
    return;
  }
  const body = "html" in reply ? reply.html.value : reply.body;
  const contentType = "html" in reply ? "text/html; charset=utf-8" : reply.contentType;
  const extra: Record<string, string> = "html" in reply ? {} : { "cache-control": "private, max-age=3600" };
  if (!("html" in reply) && reply.download) extra["content-disposition"] = "attachment";
  if (!("html" in reply) && reply.preview) Object.assign(extra, previewHeaders(), { "cache-control": "no-store" });
  res.writeHead(reply.status, { ...headers, ...extra, "content-type": contentType, "content-length": String(Buffer.byteLength(body)) });
  res.end(method === "HEAD" ? undefined : body);
}
