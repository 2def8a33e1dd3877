import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request a webhook receiver got: its headers and its body as text. */
export interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: answers 204 and keeps each request in `received`; the first
 * `failFirst` requests are answered `failStatus` (503 unless set; not kept), as a receiver that is restarting.
 */
export class HookServer {
  readonly received: Received[] = [];
  failFirst = 0;
  failStatus = 503;
  private readonly server: Server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      if (this.failFirst > 0) {
        this.failFirst--;
        res.writeHead(this.failStatus).end();
        return;
      }
      this.received.push({ headers: req.headers, body: data });
      res.writeHead(204).end();
    });
  });

  /** Starts listening; resolves to its base URL (http://127.0.0.1:PORT). */
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}
