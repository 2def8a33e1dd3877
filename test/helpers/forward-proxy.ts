import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

/**
 * A forward proxy on 127.0.0.1:0 (absolute-form HTTP requests and CONNECT tunnels), optionally
 * asking for Basic credentials, that records each target it carried and can tag what it relays
 * (the header `via-proxy` names it) so a test site tells proxied requests apart.
 */
export class ForwardProxy {
  /** host:port (CONNECT) or absolute URL (plain requests) of each exchange carried. */
  readonly carried: string[] = [];
  /** Requests refused for missing or wrong credentials. */
  refused = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  url = "";

  constructor(private readonly options: { name?: string; user?: string; password?: string } = {}) {}

  private authorized(req: IncomingMessage): boolean {
    if (this.options.user === undefined) return true;
    const expected = `Basic ${Buffer.from(`${this.options.user}:${this.options.password ?? ""}`).toString("base64")}`;
    if (req.headers["proxy-authorization"] === expected) return true;
    this.refused++;
    return false;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      if (!this.authorized(req)) return void res.writeHead(407, { "proxy-authenticate": 'Basic realm="proxy"' }).end();
      const target = new URL(req.url ?? "");
      this.carried.push(target.href);
      const headers = { ...req.headers, ...(this.options.name ? { "via-proxy": this.options.name } : {}) };
      delete headers["proxy-authorization"];
      const upstream = httpRequest({ host: target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
      client.on("error", () => client.destroy());
      if (!this.authorized(req)) return void client.end("HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n");
      this.carried.push(req.url ?? "");
      const [host, port] = (req.url ?? "").split(/:(?=\d+$)/);
      const upstream = connect({ host: host!.replace(/^\[|\]$/g, ""), port: Number(port) }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        if (this.options.name) tagRequests(client, upstream, this.options.name);
        else client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
    });
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Adds `via-proxy: name` after each plain-HTTP request line passing through a tunnel (the test sites speak plain HTTP). */
export function tagRequests(client: Socket, upstream: Socket, name: string): void {
  client.on("data", (chunk: Buffer) => {
    upstream.write(chunk.toString("latin1").replace(/^((?:GET|POST|HEAD|PUT|DELETE|OPTIONS|PATCH) \S+ HTTP\/1\.[01]\r\n)/gm, `$1via-proxy: ${name}\r\n`), "latin1");
  });
}
