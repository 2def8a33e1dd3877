import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpsServer, tableResolver, type TestServer } from "./servers.js";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())("https through the gate", () => {
  let server: TestServer;
  let gate: FetchGate;
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-tls-"));

  beforeAll(async () => {
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=secure.test", "-addext", "subjectAltName=DNS:secure.test"], { stdio: "ignore" });
    server = await startHttpsServer((req, res) => res.end(`sni=${(req.socket as TLSSocket).servername}`), {
      key: readFileSync(key, "utf8"),
      cert: readFileSync(cert, "utf8"),
    });
    const { resolve } = tableResolver({ "secure.test": ["127.0.0.1"], "inside.test": ["127.0.0.2"] });
    gate = createFetchGate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
  });

  afterAll(async () => {
    await gate.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an untrusted certificate with a hint", async () => {
    const error = await failure(gate.fetch({ url: `https://secure.test:${server.port}/`, timeoutMs: 5000 }), "network");
    expect(error.message).toContain("skipTlsVerification");
    expect(error.url).toBe(`https://secure.test:${server.port}/`);
  });

  it("connects to the checked address with the name as SNI when verification is skipped", async () => {
    const response = await gate.fetch({ url: `https://secure.test:${server.port}/`, timeoutMs: 5000, skipTlsVerification: true });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("sni=secure.test");
  });

  it("checks https targets like http ones", async () => {
    await failure(gate.fetch({ url: `https://inside.test:${server.port}/`, timeoutMs: 5000, skipTlsVerification: true }), "blocked");
  });
});
