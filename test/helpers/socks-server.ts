import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";
import { tagRequests } from "./forward-proxy.js";

/**
 * A SOCKS5 server on 127.0.0.1:0 (CONNECT only, username/password authentication, RFC 1928/1929)
 * that records each host:port it connected to and tags the plain-HTTP requests it relays.
 */
export class SocksServer {
  readonly carried: string[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  url = "";

  constructor(private readonly options: { user: string; password: string; name?: string }) {}

  async start(): Promise<this> {
    const server = createServer((client) => void this.serve(client).catch(() => client.destroy()));
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    const port = (server.address() as AddressInfo).port;
    this.url = `socks5://${encodeURIComponent(this.options.user)}:${encodeURIComponent(this.options.password)}@127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async serve(client: Socket): Promise<void> {
    client.on("error", () => client.destroy());
    let buffer = Buffer.alloc(0);
    let wake: (() => void) | undefined;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      wake?.();
    };
    client.on("data", onData);
    const read = async (n: number): Promise<Buffer> => {
      while (buffer.length < n) await new Promise<void>((resolve) => (wake = resolve));
      const out = buffer.subarray(0, n);
      buffer = buffer.subarray(n);
      return out;
    };
    const [, methods] = await read(2);
    const offered = [...(await read(methods!))];
    if (!offered.includes(2)) return void client.end(Buffer.from([5, 0xff]));
    client.write(Buffer.from([5, 2]));
    const [, userLength] = await read(2);
    const user = (await read(userLength!)).toString();
    const [passwordLength] = await read(1);
    const password = (await read(passwordLength!)).toString();
    if (user !== this.options.user || password !== this.options.password) return void client.end(Buffer.from([1, 1]));
    client.write(Buffer.from([1, 0]));
    const [, command, , type] = await read(4);
    const host = type === 3 ? (await read((await read(1))[0]!)).toString() : type === 1 ? [...(await read(4))].join(".") : "";
    const portBytes = await read(2);
    const port = portBytes.readUInt16BE(0);
    if (command !== 1 || host === "") return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
    this.carried.push(`${host}:${port}`);
    const upstream = connect({ host, port }, () => {
      client.off("data", onData);
      client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
      if (buffer.length) upstream.write(buffer);
      if (this.options.name) tagRequests(client, upstream, this.options.name);
      else client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on("error", () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
    client.on("close", () => upstream.destroy());
  }
}
