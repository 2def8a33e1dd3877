import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { once } from "node:events";
import { isScrapelineError } from "../../../core/index.js";
import { PinnedAddresses, redactUrl, type CheckedTarget } from "../fetch/index.js";
import { openTunnel } from "./upstream-tunnel.js";

/** Resolves a URL's host and checks every address; throws a "blocked" ScrapelineError when refused. */
export type TargetCheck = (url: URL, signal: AbortSignal) => Promise<CheckedTarget>;

export interface ProxyGateOptions {
  check: TargetCheck;
  /** Hosts refused without being reported (ads and trackers under blockAds). */
  refuseHost?: (hostname: string) => boolean;
  /** The operator's proxy (http, https or socks5) each checked request goes on through; none: straight to the target. */
  upstream?: URL;
}

/** A request the gate refused because of where it led. */
export interface BlockedRequest {
  url: string;
  reason: string;
}

/** Marks answers the gate wrote itself, so a refused navigation is told apart from a real 403. */
export const BLOCKED_HEADER = "x-scrapeline-blocked";

/** Headers that describe one hop of the connection and are not forwarded. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

/**
 * A forward proxy (plain HTTP requests and CONNECT tunnels) on 127.0.0.1 that the browser sends
 * every request through. Each target is resolved once, every address is checked with the fetch
 * gate's policy, and the connection is opened to a checked address only: navigations, redirects,
 * sub-resources, fetch/XHR and WebSockets all pass the same private-network gate as plain fetching.
 */
export class ProxyGate {
  readonly blocked: BlockedRequest[] = [];
  /** Requests refused as ads or trackers. */
  refused = 0;
  private readonly pins = new PinnedAddresses();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly sockets = new Set<Socket>();
  private readonly stop = new AbortController();
  private port = 0;

  private constructor(
    private readonly server: Server,
    private readonly options: ProxyGateOptions,
  ) {}

  static async start(options: ProxyGateOptions): Promise<ProxyGate> {
    const server = createServer();
    const gate = new ProxyGate(server, options);
    // A request the proxy cannot relay (a header Node refuses, a socket gone) ends that request only.
    server.on("request", (req: IncomingMessage, res: ServerResponse) => gate.forward(req, res).catch(() => res.destroy()));
    server.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => gate.tunnel(req, socket, head).catch(() => socket.destroy()));
    server.on("connection", (socket: Socket) => {
      gate.sockets.add(socket);
      socket.on("close", () => gate.sockets.delete(socket));
    });
    server.on("clientError", (_error, socket) => socket.destroy());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    gate.port = typeof address === "object" && address ? address.port : 0;
    return gate;
  }

  /** The proxy address to give the browser. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.stop.abort();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    this.pins.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Checks the target, or records why it is refused and returns undefined. */
  private async admit(url: URL, shown: string): Promise<CheckedTarget | undefined> {
    if (this.options.refuseHost?.(url.hostname)) {
      this.refused++;
      return undefined;
    }
    try {
      const target = await this.options.check(url, this.stop.signal);
      if (!target.literal) this.pins.pin(target.hostname, target.addresses);
      return target;
    } catch (error) {
      const reason = isScrapelineError(error) ? error.message : error instanceof Error ? error.message : String(error);
      if (isScrapelineError(error, "blocked")) this.blocked.push({ url: shown, reason });
      throw Object.assign(new Error(reason), { blocked: isScrapelineError(error, "blocked") });
    }
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:") throw new Error("not http");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("the proxy takes absolute http: URLs only");
      return;
    }
    let target: CheckedTarget | undefined;
    try {
      target = await this.admit(url, redactUrl(url.href));
    } catch (error) {
      const blocked = (error as { blocked?: boolean }).blocked === true;
      res.writeHead(blocked ? 403 : 502, { "content-type": "text/plain", ...(blocked ? { [BLOCKED_HEADER]: "1" } : {}) }).end((error as Error).message);
      return;
    }
    if (!target) {
      res.writeHead(403, { "content-type": "text/plain" }).end("refused: ad or tracker host");
      return;
    }
    const via = this.options.upstream;
    const port = Number(url.port || 80);
    const upstream = httpRequest({
      ...(via ? { createConnection: (_options: unknown, done: (error: Error | null, socket: Duplex) => void) => void openTunnel(via, target.hostname, port).then((socket) => done(null, socket), (error: Error) => done(error, undefined as never)) } : { agent: this.agent, lookup: this.pins.lookup }),
      host: target.hostname,
      port,
      path: `${url.pathname}${url.search}`,
      method: req.method ?? "GET",
      headers: forwardable(req.headers),
    });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res);
    });
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(error.message);
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const authority = req.url ?? "";
    let url: URL;
    try {
      url = new URL(`http://${authority}/`);
      if (!url.port && !authority.endsWith(":80")) throw new Error("no port");
    } catch {
      client.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const port = Number(url.port || 80);
    let target: CheckedTarget | undefined;
    try {
      target = await this.admit(url, authority);
    } catch (error) {
      const blocked = (error as { blocked?: boolean }).blocked === true;
      client.end(`HTTP/1.1 ${blocked ? "403 Forbidden" : "502 Bad Gateway"}\r\n${blocked ? `${BLOCKED_HEADER}: 1\r\n` : ""}content-length: 0\r\n\r\n`);
      return;
    }
    if (!target || client.destroyed) {
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    if (this.options.upstream) {
      await this.relayThrough(this.options.upstream, target.hostname, port, client, head);
      return;
    }
    const upstream = connect({ host: target.hostname, port, lookup: this.pins.lookup });
    this.sockets.add(upstream);
    upstream.on("close", () => this.sockets.delete(upstream));
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (client.writable && !connected) client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
      else client.destroy();
    });
    client.on("close", () => upstream.destroy());
  }

  /** A CONNECT relayed on through the operator's proxy, to the target the gate checked. */
  private async relayThrough(via: URL, host: string, port: number, client: Socket, head: Buffer): Promise<void> {
    let upstream: Socket;
    try {
      upstream = await openTunnel(via, host, port);
    } catch {
      if (client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    this.sockets.add(upstream);
    upstream.on("close", () => this.sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    client.on("close", () => upstream.destroy());
  }
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}
