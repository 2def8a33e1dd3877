import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (req: IncomingMessage, res: ServerResponse, hits: number) => unknown;

/** A fixture site on 127.0.0.1:0 whose routes a test programs; counts the hits of each path. */
export class FixtureSite {
  readonly hits = new Map<string, number>();
  private readonly routes = new Map<string, Handler>();
  private server: Server | undefined;
  private readonly sockets = new Set<import("node:net").Socket>();
  url = "";

  route(path: string, handler: Handler): this {
    this.routes.set(path, handler);
    return this;
  }

  /** A page of HTML under `path`. */
  page(path: string, html: string, status = 200): this {
    return this.route(path, (_req, res) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const n = (this.hits.get(path) ?? 0) + 1;
      this.hits.set(path, n);
      const handler = this.routes.get(path);
      if (!handler) {
        res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
        return;
      }
      await handler(req, res, n);
    });
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}"></head><body><nav><a href="/">Home</a></nav><main><h1>${title}</h1>${body}</main><footer>© fixture</footer></body></html>`;
}
