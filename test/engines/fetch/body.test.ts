import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { Transform } from "node:stream";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpServer, startRawServer, type TestServer } from "./servers.js";

const MiB = 1024 * 1024;
const TEXT = "<html><body>" + "héllo wörld ".repeat(2000) + "</body></html>";

/** `bytes` zeros run through `compressor` a MiB at a time, so the plain form is never held whole. */
async function compressZeros(bytes: number, compressor: Transform): Promise<Buffer> {
  const zeros = Buffer.alloc(MiB);
  const out: Buffer[] = [];
  compressor.on("data", (chunk: Buffer) => out.push(chunk));
  for (let written = 0; written < bytes; written += MiB) {
    if (!compressor.write(zeros)) await once(compressor, "drain");
  }
  compressor.end();
  await once(compressor, "end");
  return Buffer.concat(out);
}

/** Writes `total` bytes of "x" in 64 KiB chunks, respecting backpressure, until done or closed. */
async function stream(res: ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  const drainedOrClosed = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    if (!res.write(chunk)) await drainedOrClosed();
  }
  res.end();
}

let server: TestServer;
let truncating: TestServer;
let truncatingGzip: TestServer;
let truncatingChunked: TestServer;
let gate: FetchGate;
let gzipBomb: Buffer;
let brotliBomb: Buffer;

beforeAll(async () => {
  gzipBomb = await compressZeros(64 * MiB, zlib.createGzip({ level: 1 }));
  brotliBomb = await compressZeros(64 * MiB, zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }));
  const encoded: Record<string, [string, Buffer]> = {
    "/gzip": ["gzip", zlib.gzipSync(TEXT)],
    "/deflate": ["deflate", zlib.deflateSync(TEXT)],
    "/raw-deflate": ["deflate", zlib.deflateRawSync(TEXT)],
    "/br": ["br", zlib.brotliCompressSync(TEXT)],
    "/gzip-then-br": ["gzip, br", zlib.brotliCompressSync(zlib.gzipSync(TEXT))],
    "/gzip-bomb": ["gzip", gzipBomb],
    "/br-bomb": ["br", brotliBomb],
    "/corrupt": ["gzip", Buffer.from("this is not gzip at all")],
    "/zstd": ["zstd", Buffer.from("(\xb5/\xfd")],
  };
  server = await startHttpServer((req, res) => {
    const path = req.url ?? "/";
    const body = encoded[path];
    if (body) res.writeHead(200, { "content-encoding": body[0], "content-type": "text/html" }).end(body[1]);
    else if (path === "/huge-stream") void stream(res.writeHead(200, { "content-type": "application/octet-stream" }), 200 * MiB);
    else if (path === "/huge-declared") res.writeHead(200, { "content-length": String(200 * MiB) }).write("x".repeat(1000));
    else if (path === "/empty-gzip") res.writeHead(200, { "content-encoding": "gzip", "content-length": "0" }).end();
    else if (path === "/no-content") res.writeHead(204, { "content-encoding": "gzip" }).end();
    else res.end(TEXT);
  });
  // Promises 1000 bytes, sends 10, hangs up.
  truncating = await startRawServer((socket) => {
    socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/html\r\n\r\n0123456789"));
  });
  // A valid gzip stream cut in half, with the Content-Length of the whole.
  const gzipped = zlib.gzipSync(TEXT);
  truncatingGzip = await startRawServer((socket) => {
    const head = `HTTP/1.1 200 OK\r\nContent-Length: ${gzipped.length}\r\nContent-Encoding: gzip\r\n\r\n`;
    socket.once("data", () => socket.end(Buffer.concat([Buffer.from(head), gzipped.subarray(0, gzipped.length >> 1)])));
  });
  // A chunked body that stops without its last chunk.
  truncatingChunked = await startRawServer((socket) => {
    socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"));
  });
  gate = createFetchGate({ allowPrivateNetwork: true });
});

afterAll(async () => {
  await gate.close();
  await Promise.all([server.close(), truncating.close(), truncatingGzip.close(), truncatingChunked.close()]);
});

describe("content-encoding", () => {
  it.each(["/plain", "/gzip", "/deflate", "/raw-deflate", "/br", "/gzip-then-br"])("decodes %s", async (path) => {
    const response = await gate.fetch({ url: server.url(path), timeoutMs: 5000 });
    expect(response.body.toString("utf8")).toBe(TEXT);
  });

  it("returns an empty encoded body as empty", async () => {
    expect((await gate.fetch({ url: server.url("/empty-gzip"), timeoutMs: 5000 })).body.length).toBe(0);
    expect((await gate.fetch({ url: server.url("/no-content"), timeoutMs: 5000 })).status).toBe(204);
  });

  it("reports a corrupt or unknown encoding as bad content", async () => {
    await failure(gate.fetch({ url: server.url("/corrupt"), timeoutMs: 5000 }), "bad-content");
    const error = await failure(gate.fetch({ url: server.url("/zstd"), timeoutMs: 5000 }), "bad-content");
    expect(error.message).toContain("zstd");
  });
});

describe("size caps", () => {
  it("stops a gzip bomb at the decoded cap without holding its output", async () => {
    expect(gzipBomb.length).toBeLessThan(MiB);
    const before = process.memoryUsage().arrayBuffers;
    const error = await failure(gate.fetch({ url: server.url("/gzip-bomb"), timeoutMs: 10_000, maxBodyBytes: MiB }), "too-large");
    expect(error.url).toBe(server.url("/gzip-bomb"));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(24 * MiB);
  });

  it("stops a brotli bomb at the decoded cap", async () => {
    await failure(gate.fetch({ url: server.url("/br-bomb"), timeoutMs: 10_000, maxBodyBytes: MiB }), "too-large");
  });

  it("stops a 200 MB streamed body at the default cap", async () => {
    const error = await failure(gate.fetch({ url: server.url("/huge-stream"), timeoutMs: 20_000 }), "too-large");
    expect(error.message).toContain(String(20 * MiB));
  });

  it("refuses a Content-Length over the cap before reading", async () => {
    const error = await failure(gate.fetch({ url: server.url("/huge-declared"), timeoutMs: 20_000 }), "too-large");
    expect(error.message).toContain("Content-Length");
  });

  it("accepts a body exactly at the cap", async () => {
    const response = await gate.fetch({ url: server.url("/gzip"), timeoutMs: 5000, maxBodyBytes: Buffer.byteLength(TEXT) });
    expect(response.body.length).toBe(Buffer.byteLength(TEXT));
  });
});

describe("truncation", () => {
  it("fails a body shorter than its Content-Length instead of returning it", async () => {
    const error = await failure(gate.fetch({ url: truncating.url("/"), timeoutMs: 5000 }), "network");
    expect(error.message).toContain("truncated");
    expect(error.url).toBe(truncating.url("/"));
  });

  it("fails a compressed body cut short", async () => {
    const error = await failure(gate.fetch({ url: truncatingGzip.url("/"), timeoutMs: 5000 }), "network");
    expect(error.message).toContain("truncated");
  });

  it("fails a chunked body that ends without its last chunk", async () => {
    const error = await failure(gate.fetch({ url: truncatingChunked.url("/"), timeoutMs: 5000 }), "network");
    expect(error.message).toContain("truncated");
  });
});
