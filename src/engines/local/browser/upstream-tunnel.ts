import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

/**
 * A TCP tunnel to `host:port` through the operator's proxy: an HTTP CONNECT (http: or https:
 * proxy, Basic credentials from its URL) or a SOCKS5 CONNECT (username/password from its URL).
 * The target was checked by the caller; the proxy itself is the operator's and may be anywhere.
 */
export async function openTunnel(proxy: URL, host: string, port: number): Promise<Socket> {
  const socket = await reach(proxy);
  try {
    if (proxy.protocol === "socks5:" || proxy.protocol === "socks:") await socksConnect(socket, proxy, host, port);
    else await httpConnect(socket, proxy, host, port);
    return socket;
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

function reach(proxy: URL): Promise<Socket> {
  const port = Number(proxy.port) || (proxy.protocol === "https:" ? 443 : proxy.protocol === "http:" ? 80 : 1080);
  return new Promise((resolve, reject) => {
    const socket: Socket = proxy.protocol === "https:" ? tlsConnect({ host: proxy.hostname, port, servername: proxy.hostname }) : netConnect({ host: proxy.hostname.replace(/^\[|\]$/g, ""), port });
    socket.once(proxy.protocol === "https:" ? "secureConnect" : "connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Bytes as they arrive, read in exact amounts or up to a marker. */
class Reader {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.wake?.();
  };
  private readonly onEnd = (error?: Error) => {
    this.failure = error ?? new Error("the proxy closed the connection");
    this.wake?.();
  };
  private readonly onClose = () => this.onEnd();

  constructor(private readonly socket: Socket) {
    socket.on("data", this.onData);
    socket.once("error", this.onEnd);
    socket.once("close", this.onClose);
  }

  async until(done: (buffer: Buffer) => number | undefined): Promise<Buffer> {
    for (;;) {
      const length = done(this.buffer);
      if (length !== undefined) {
        const taken = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        return taken;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  bytes(n: number): Promise<Buffer> {
    return this.until((buffer) => (buffer.length >= n ? n : undefined));
  }

  /** Stops reading; whatever arrived past the handshake is handed back to the stream. */
  release(): void {
    this.socket.off("data", this.onData);
    this.socket.off("error", this.onEnd);
    this.socket.off("close", this.onClose);
    if (this.buffer.length > 0) this.socket.unshift(this.buffer);
  }
}

async function httpConnect(socket: Socket, proxy: URL, host: string, port: number): Promise<void> {
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const credentials = proxy.username || proxy.password ? `Proxy-Authorization: Basic ${Buffer.from(`${decode(proxy.username)}:${decode(proxy.password)}`).toString("base64")}\r\n` : "";
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
  const reader = new Reader(socket);
  const head = await reader.until((buffer) => {
    const end = buffer.indexOf("\r\n\r\n");
    return end < 0 ? undefined : end + 4;
  });
  reader.release();
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString("latin1"))?.[1];
  if (status !== "200") throw new Error(`the proxy refused the tunnel to ${authority} (HTTP ${status ?? "?"})`);
}

const SOCKS_REPLIES: Record<number, string> = { 1: "general failure", 2: "not allowed by its rules", 3: "network unreachable", 4: "host unreachable", 5: "connection refused", 6: "TTL expired", 7: "command not supported", 8: "address type not supported" };

async function socksConnect(socket: Socket, proxy: URL, host: string, port: number): Promise<void> {
  const reader = new Reader(socket);
  const user = decode(proxy.username);
  const password = decode(proxy.password);
  const withCredentials = user !== "" || password !== "";
  socket.write(Buffer.from(withCredentials ? [5, 2, 0, 2] : [5, 1, 0]));
  const [, method] = await reader.bytes(2);
  if (method === 2) {
    const u = Buffer.from(user);
    const p = Buffer.from(password);
    socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([p.length]), p]));
    const [, status] = await reader.bytes(2);
    if (status !== 0) throw new Error("the SOCKS5 proxy refused its credentials");
  } else if (method !== 0) {
    throw new Error("the SOCKS5 proxy accepts none of our authentication methods");
  }
  const name = Buffer.from(host.replace(/^\[|\]$/g, ""));
  socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 0xff])]));
  const [, reply, , type] = await reader.bytes(4);
  const rest = type === 1 ? 4 : type === 4 ? 16 : (await reader.bytes(1))[0]!;
  await reader.bytes(rest + 2);
  reader.release();
  if (reply !== 0) throw new Error(`the SOCKS5 proxy could not connect to ${host}:${port}: ${SOCKS_REPLIES[reply ?? 1] ?? `reply ${reply}`}`);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
