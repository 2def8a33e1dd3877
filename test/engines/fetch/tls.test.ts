import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasOpenssl, selfSignedCert } from "../../helpers/tls.js";
import { createFetchGate, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpsServer, tableResolver, type TestServer } from "./servers.js";


describe.skipIf(!hasOpenssl())("https through the gate", () => {
  let server: TestServer;
  let gate: FetchGate;

  beforeAll(async () => {
    server = await startHttpsServer((req, res) => res.end(`sni=${(req.socket as TLSSocket).servername}`), selfSignedCert("secure.test", "secure.test"));
    const { resolve } = tableResolver({ "secure.test": ["127.0.0.1"], "inside.test": ["127.0.0.2"] });
    gate = createFetchGate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
  });

  afterAll(async () => {
    await gate.close();
    await server.close();
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
