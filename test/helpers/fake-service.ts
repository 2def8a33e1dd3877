import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import busboy from "busboy";

export interface SeenCall {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** The body's bytes as received (a multipart upload is not text). */
  raw: Buffer;
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
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const bytes = Buffer.concat(chunks);
        const raw = bytes.toString("utf8");
        let body: unknown;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          body = raw;
        }
        const call: SeenCall = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body, raw: bytes };
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

/** A multipart/form-data upload as the service reads it: its fields and its files (name, filename, bytes). */
export interface Multipart {
  fields: Record<string, string>;
  files: Array<{ name: string; filename: string; mimeType: string; bytes: Buffer }>;
}

/** Reads a call's body as multipart/form-data (busboy, as serve does); rejects a malformed body. */
export function readMultipart(call: SeenCall): Promise<Multipart> {
  return new Promise((resolve, reject) => {
    const out: Multipart = { fields: {}, files: [] };
    const parser = busboy({ headers: call.headers, defParamCharset: "utf8" });
    parser.on("field", (name, value) => (out.fields[name] = value));
    parser.on("file", (name, stream, info) => {
      const parts: Buffer[] = [];
      stream.on("data", (c: Buffer) => parts.push(c));
      stream.on("end", () => out.files.push({ name, filename: info.filename ?? "", mimeType: info.mimeType, bytes: Buffer.concat(parts) }));
    });
    parser.on("error", reject);
    parser.on("close", () => resolve(out));
    parser.end(call.raw);
  });
}
