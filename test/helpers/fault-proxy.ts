import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to one matching exchange instead of passing it through untouched. */
export type Fault =
  | { kind: "html"; status?: number } // an HTML error page in place of the JSON answer
  | { kind: "truncate" } // the answer cut in half
  | { kind: "429"; message?: string; retryAfter?: string } // a rate-limit answer
  | { kind: "rewrite"; edit: (body: Record<string, unknown>) => Record<string, unknown> }; // the real answer, edited

interface Rule {
  method: string;
  path: RegExp;
  fault: Fault;
  /** How many exchanges it applies to (Infinity: all). */
  times: number;
}

/**
 * A fault-injecting HTTP proxy in front of a real server on 127.0.0.1: exchanges matching a rule
 * get the rule's fault, every other one passes through as it is. Records what it forwarded.
 */
export class FaultProxy {
  private readonly rules: Rule[] = [];
  readonly seen: Array<{ method: string; path: string; fault?: Fault["kind"] }> = [];
  private server: Server | undefined;
  url = "";

  constructor(private readonly target: string) {}

  inject(method: string, path: RegExp, fault: Fault, times = 1): this {
    this.rules.push({ method, path, fault, times });
    return this;
  }

  clear(): void {
    this.rules.length = 0;
  }

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      const path = req.url ?? "/";
      const rule = this.rules.find((r) => r.times > 0 && r.method === req.method && r.path.test(path));
      if (rule) rule.times--;
      this.seen.push({ method: req.method ?? "GET", path, ...(rule ? { fault: rule.fault.kind } : {}) });
      const fault = rule?.fault;
      if (fault?.kind === "html") {
        req.resume();
        res.writeHead(fault.status ?? 502, { "content-type": "text/html" }).end("<html><body><h1>502 Bad Gateway</h1></body></html>");
        return;
      }
      if (fault?.kind === "429") {
        req.resume();
        res.writeHead(429, { "content-type": "application/json", ...(fault.retryAfter ? { "retry-after": fault.retryAfter } : {}) }).end(JSON.stringify({ success: false, error: fault.message ?? "Rate limit exceeded. please retry after 0s" }));
        return;
      }
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path, headers: { ...req.headers, host: target.host } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          let body = Buffer.concat(chunks);
          if (fault?.kind === "rewrite") body = Buffer.from(JSON.stringify(fault.edit(JSON.parse(body.toString("utf8")))));
          const headers = { ...answer.headers };
          delete headers["content-length"];
          delete headers["transfer-encoding"];
          if (fault?.kind === "truncate") {
            res.writeHead(answer.statusCode ?? 502, { ...headers, "content-length": String(body.length) });
            res.write(body.subarray(0, Math.floor(body.length / 2)));
            res.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, { ...headers, "content-length": String(body.length) }).end(body);
        });
      });
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
