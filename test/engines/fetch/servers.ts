import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import { once } from "node:events";
import { isScrapelineError, type ErrorKind, type ScrapelineError } from "../../../src/core/index.js";

/** A server started by a test on a loopback address; counts the connections it accepts. */
export interface TestServer {
  host: string;
  port: number;
  /** Connections accepted so far. */
  connections: number;
  url(path?: string): string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(server: Server, host: string, port: number): Promise<number> {
  server.listen(port, host);
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("server has no port");
  return address.port;
}

function track(server: Server, host: string, sockets: Set<Socket>, scheme = "http"): TestServer {
  const state: TestServer = {
    host,
    port: 0,
    connections: 0,
    url: (path = "/") => `${scheme}://${host}:${state.port}${path}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on("connection", (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return state;
}

/** An HTTP server on `host` (port 0 picks a free one). */
export async function startHttpServer(handler: Handler, host = "127.0.0.1", port = 0): Promise<TestServer> {
  const server = createHttpServer(handler);
  const sockets = new Set<Socket>();
  const state = track(server, host, sockets);
  state.port = await listen(server, host, port);
  return state;
}

/** An HTTPS server on 127.0.0.1 with the given key and certificate (PEM). */
export async function startHttpsServer(handler: Handler, tls: { key: string; cert: string }): Promise<TestServer> {
  const server = createHttpsServer(tls, handler);
  const sockets = new Set<Socket>();
  const state = track(server, "127.0.0.1", sockets, "https");
  state.port = await listen(server, "127.0.0.1", 0);
  return state;
}

/** A TCP server that hands every accepted socket to `onSocket`, for misbehaving peers. */
export async function startRawServer(onSocket: (socket: Socket) => void, host = "127.0.0.1"): Promise<TestServer> {
  const server = createNetServer(onSocket);
  const sockets = new Set<Socket>();
  const state = track(server, host, sockets);
  state.port = await listen(server, host, 0);
  return state;
}

/** The ScrapelineError `promise` rejects with; fails the test when it resolves or throws something else. */
export async function failure(promise: Promise<unknown>, kind?: ErrorKind): Promise<ScrapelineError> {
  try {
    await promise;
  } catch (error) {
    if (!isScrapelineError(error)) throw error;
    if (kind !== undefined && error.kind !== kind) throw new Error(`expected ${kind}, got ${error.kind}: ${error.message}`, { cause: error });
    return error;
  }
  throw new Error(`expected a ${kind ?? "ScrapelineError"} failure, but the request succeeded`);
}

/** A resolver answering from a table, as DNS would; unknown names fail with ENOTFOUND. */
export function tableResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<string[]> => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return typeof entry === "function" ? entry() : entry;
  };
  return { resolve, calls };
}
