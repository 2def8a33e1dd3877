import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, HostDownError, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpServer, startRawServer, type TestServer } from "./servers.js";

let server: TestServer;
let silent: TestServer;
let resetting: TestServer;
let hangingUp: TestServer;
let gate: FetchGate;
const drips = new Set<NodeJS.Timeout>();
let onRequest: (() => void) | undefined;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    onRequest?.();
    if (req.url === "/drip") {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 200);
      drips.add(timer);
      res.on("close", () => {
        clearInterval(timer);
        drips.delete(timer);
      });
    } else if (req.url === "/hang") {
      // never answers
    } else if (req.url === "/missing") res.writeHead(404, { "content-type": "text/plain" }).end("not here");
    else if (req.url === "/broken") res.writeHead(500).end("oops");
    else res.end("ok");
  });
  // Accepts connections and never writes a byte.
  silent = await startRawServer(() => undefined);
  // Resets the connection as soon as the request arrives.
  resetting = await startRawServer((socket: Socket) => socket.once("data", () => socket.resetAndDestroy()));
  // Closes the connection without an answer.
  hangingUp = await startRawServer((socket: Socket) => socket.once("data", () => socket.end()));
  gate = createFetchGate({ allowPrivateNetwork: true });
});

afterAll(async () => {
  for (const timer of drips) clearInterval(timer);
  await gate.close();
  await Promise.all([server.close(), silent.close(), resetting.close(), hangingUp.close()]);
});

describe("deadlines", () => {
  it("times out a server that never sends headers", async () => {
    const error = await failure(gate.fetch({ url: silent.url("/"), timeoutMs: 500 }), "timeout");
    expect(error.url).toBe(silent.url("/"));
  });

  it("times out a body that drips one byte at a time", async () => {
    const error = await failure(gate.fetch({ url: server.url("/drip"), timeoutMs: 1000 }), "timeout");
    expect(error.message).toContain("1000 ms");
  });
});

describe("cancellation", () => {
  it("reports a caller abort while waiting as cancelled", async () => {
    const controller = new AbortController();
    onRequest = () => controller.abort();
    try {
      const error = await failure(gate.fetch({ url: server.url("/hang"), timeoutMs: 10_000, signal: controller.signal }), "cancelled");
      expect(error.url).toBe(server.url("/hang"));
    } finally {
      onRequest = undefined;
    }
  });

  it("does not start a request whose signal is already aborted", async () => {
    const fresh = await startRawServer((socket) => socket.destroy());
    try {
      await failure(gate.fetch({ url: fresh.url("/"), timeoutMs: 5000, signal: AbortSignal.abort() }), "cancelled");
      expect(fresh.connections).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

describe("connection failures", () => {
  it("reports a reset connection as a network error", async () => {
    const error = await failure(gate.fetch({ url: resetting.url("/"), timeoutMs: 5000 }), "network");
    expect(error.cause).toBeDefined();
    expect(error.url).toBe(resetting.url("/"));
  });

  it("reports a connection closed before any answer as a network error", async () => {
    await failure(gate.fetch({ url: hangingUp.url("/"), timeoutMs: 5000 }), "network");
  });

  it("reports a refused connection as a network error that says so, with its cause", async () => {
    const gone = await startRawServer(() => undefined);
    const url = gone.url("/");
    await gone.close();
    const error = await failure(gate.fetch({ url, timeoutMs: 5000 }), "network");
    expect(error.message).toBe(`could not fetch ${url}: connection refused by 127.0.0.1:${gone.port}`);
    expect(error).toBeInstanceOf(HostDownError);
    expect((error as HostDownError).reason).toBe("refused");
    expect(error.cause).toBeDefined();
  });

  it("keeps secret header values out of error messages", async () => {
    const error = await failure(gate.fetch({ url: resetting.url("/"), timeoutMs: 5000, headers: { Authorization: "Bearer s3cr3t-token" } }), "network");
    expect(error.message).not.toContain("s3cr3t-token");
  });
});

describe("statuses", () => {
  it("returns 404 and 500 as responses", async () => {
    const missing = await gate.fetch({ url: server.url("/missing"), timeoutMs: 5000 });
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe("not here");
    expect(missing.headers["content-type"]).toBe("text/plain");
    const broken = await gate.fetch({ url: server.url("/broken"), timeoutMs: 5000 });
    expect(broken.status).toBe(500);
  });

  it("reuses connections across requests", async () => {
    const before = server.connections;
    for (let i = 0; i < 3; i++) await gate.fetch({ url: server.url("/"), timeoutMs: 5000 });
    expect(server.connections - before).toBeLessThanOrEqual(1);
  });

  it("refuses to run after close", async () => {
    const closed = createFetchGate({ allowPrivateNetwork: true });
    await closed.close();
    await failure(closed.fetch({ url: server.url("/"), timeoutMs: 5000 }), "internal");
  });
});
