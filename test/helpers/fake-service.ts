import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenCall {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export type ServiceHandler = (call: SeenCall, res: ServerResponse, n: number) => unknown;

/**
 * A stand-in for the service on 127.0.0.1 whose routes a test programs ("POST /v2/crawl",
 * "GET /v2/crawl/*"), for the faults a real server does not produce: HTML instead of JSON,
 * bodies cut short, 429 storms, jobs that never end. Every call is recorded.
 */
export class FakeService {
  readonly calls: SeenCall[] = [];
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: ServiceHandler; hits: number }> = [];
  private server: Server | undefined;
  private readonly sockets = new Set<import("node:net").Socket>();
  url = "";

  on(route: string, handler: ServiceHandler): this {
    const [method, path] = route.split(" ") as [string, string];
    this.routes.unshift({ method, pattern: new RegExp(`^${path.replace(/\*/g, "[^?]*")}(\\?.*)?$`), handler, hits: 0 });
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", async () => {
        let body: unknown;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          body = raw;
        }
        const call: SeenCall = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body };
        this.calls.push(call);
        const route = this.routes.find((r) => r.method === call.method && r.pattern.test(call.path));
        if (!route) return json(res, 404, { success: false, error: "no route" });
        route.hits++;
        await route.handler(call, res, route.hits);
      });
    });
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A Document as the service returns it. */
export function serviceDocument(url: string, markdown: string, credits = 1): Record<string, unknown> {
  return { markdown, metadata: { sourceURL: url, url, statusCode: 200, title: markdown.slice(0, 20), creditsUsed: credits, proxyUsed: "basic" } };
}
