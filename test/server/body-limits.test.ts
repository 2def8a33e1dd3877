import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type Serve } from "./helpers.js";

/** Over-size bodies are answered 413 in a way every client can read: before 100 Continue, and without a reset. */

let serve: Serve;

beforeAll(async () => {
  serve = await startServe({ a: {} });
});
afterAll(async () => {
  await serve?.stop();
});

/** Sends `head` on a raw connection and gathers what comes back until the server closes it. */
function raw(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(serve.server.port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.once("connect", () => socket.write(head));
  });
}

/**
 * POSTs `size` bytes the way a plain client does: headers, then the body as fast as the
 * connection takes it, whatever the server answers meanwhile. Resolves with the answer and every
 * error the client met, once its connection is closed.
 */
function stream(path: string, size: number, headers: Record<string, string>): Promise<{ status: number; body: string; errors: string[] }> {
  return new Promise((resolve) => {
    let status = 0;
    let body = "";
    const errors: string[] = [];
    const req = request(`${serve.server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${serve.keys.a}`, "content-length": String(size), ...headers } }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("error", (error) => errors.push(`response: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    });
    req.on("error", (error) => errors.push(`request: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    req.on("close", () => resolve({ status, body, errors }));
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe("over-size bodies", () => {
  it("a request that expects 100-continue with a declared body over the limit gets the 413 instead of 100 Continue", async () => {
    const answer = await raw(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain("100 Continue");
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ success: false, error: "Payload too large: request bodies are limited to 10485760 bytes (10 MiB)" });
  });

  it("the upload route's own limit decides: under it the client is told to continue, over it the 413 names the upload limit", async () => {
    const over = await raw(`POST /v2/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${60 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`);
    expect(over).toMatch(/^HTTP\/1\.1 413 /);
    expect(over).toContain("uploads are limited to 52428800 bytes (50 MB)");
    // 20 MB is over the JSON limit but within the upload's: the client may send it.
    const under = await new Promise<string>((resolve, reject) => {
      const socket = connect(serve.server.port, "127.0.0.1");
      socket.setEncoding("utf8");
      socket.once("data", (chunk: string) => {
        resolve(chunk);
        socket.destroy();
      });
      socket.on("error", reject);
      socket.once("connect", () => socket.write(`POST /v2/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${20 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`));
    });
    expect(under).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  });

  it("a body within the limit that expects 100-continue is answered as any other", async () => {
    const json = '{"url":"https://example.com","formatz":[]}';
    const answer = await raw(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n${json}`);
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
  });

  it("a plain client streaming a body over the limit reads the 413, without a reset, every time", async () => {
    for (let i = 0; i < 20; i++) {
      const r = await stream("/v2/scrape", 12 * 1024 * 1024, { "content-type": "application/json" });
      expect({ attempt: i, status: r.status, errors: r.errors }).toEqual({ attempt: i, status: 413, errors: [] });
      expect(JSON.parse(r.body).error).toContain("Payload too large");
    }
  });

  it("a chunked body cut off at the limit is read the same way", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await new Promise<{ status: number; errors: string[] }>((resolve) => {
        let status = 0;
        const errors: string[] = [];
        const req = request(`${serve.server.url}/v2/scrape`, { method: "POST", headers: { authorization: `Bearer ${serve.keys.a}`, "content-type": "application/json" } }, (res) => {
          status = res.statusCode ?? 0;
          res.resume();
        });
        req.on("error", (error) => errors.push((error as NodeJS.ErrnoException).code ?? error.message));
        req.on("close", () => resolve({ status, errors }));
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 12 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once("drain", pump);
              return;
            }
          }
          req.end();
        };
        pump();
      });
      expect({ attempt: i, ...r }).toEqual({ attempt: i, status: 413, errors: [] });
    }
  });
});
