import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type Serve } from "./helpers.js";

/** What the server does with requests that are malformed, oversized, deep, slow or too many. */

let serve: Serve;

beforeAll(async () => {
  serve = await startServe({ a: {} }, { requestTimeoutMs: 1500, headersTimeoutMs: 1500, maxConnectionsPerClient: 4 });
});
afterAll(async () => {
  await serve?.stop();
});

/** A raw connection to the server: what it sends is up to the test; `text` gathers what comes back until it closes. */
function open(): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(serve.server.port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    const closed = new Promise<string>((done) => socket.on("close", () => done(text)));
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

describe("paths and bodies", () => {
  it("a malformed percent-encoding in a path is a 400 after authentication, a 401 before", async () => {
    const bad = await serve.call("DELETE", "/v1/crawl/%E0%A4%A");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("percent-encoding");
    const anonymous = await serve.call("DELETE", "/v1/crawl/%E0%A4%A", { key: null });
    expect(anonymous.status).toBe(401);
    const status = await serve.call("GET", "/v2/crawl/%ZZ");
    expect(status.status).toBe(400);
  });

  it("a body nested 5,000 deep is a 400 on every endpoint", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    for (const [path, raw] of [
      ["/v2/scrape", `{"url":"http://example.com","formats":${deep}}`],
      ["/v1/extract", `{"urls":["http://example.com"],"schema":${"{\"type\":\"object\",\"properties\":{\"a\":".repeat(3000)}{}${"}}".repeat(3000)}}`],
      ["/v2/crawl", `{"url":"http://example.com","scrapeOptions":{"headers":{"a":${deep}}}}`],
    ] as const) {
      const r = await serve.call("POST", path, { raw });
      expect(r.status, path).toBe(400);
      expect(r.body.error).toContain("nested more than 100 levels");
    }
  });

  it("a number out of range is named as such", async () => {
    const r = await serve.call("POST", "/v2/scrape", { raw: '{"url":"http://example.com","timeout":1e999}' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("timeout");
    expect(r.body.error).toContain("out of range");
    expect(r.body.error).not.toContain("null");
  });

  it("a declared body over 10 MiB is a 413 before any of it is read", async () => {
    const { socket, closed } = await open();
    socket.write(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n{"url":`);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Payload too large");
  });

  it("a chunked body is cut off with 413 once it passes 10 MiB, without waiting for its end", async () => {
    const { socket, closed } = await open();
    socket.write(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 11; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`);
    // The body never ends: the answer can only come from the cap.
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe("slow and numerous clients", () => {
  it("a body that never finishes is answered 408 and its connection closed", async () => {
    const { socket, closed } = await open();
    socket.write(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${serve.keys.a}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"url":`);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("headers that never finish are cut off", async () => {
    const { socket, closed } = await open();
    socket.write("GET /health HTTP/1.1\r\nHost: x\r\n");
    const answer = await closed;
    expect(answer).not.toContain("200 OK");
  });

  it("a client holds at most its share of connections; the others are closed as they arrive", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open()));
    const extra = await open();
    expect(await extra.closed).toBe("");
    // The connections within the limit still work.
    held[0]!.socket.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(await held[0]!.closed).toContain('{"status":"ok"}');
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    // Closed connections free their place.
    const again = await open();
    again.socket.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(await again.closed).toContain('{"status":"ok"}');
  });
});
