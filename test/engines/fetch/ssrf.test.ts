import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpServer, tableResolver, type TestServer } from "./servers.js";

// 127.0.0.1 plays a public host (treatAsPublic); 127.0.0.2 on the same port is the private target.
let publicServer: TestServer;
let privateServer: TestServer;
let port: number;
const gates: FetchGate[] = [];
const gate = (...args: Parameters<typeof createFetchGate>) => {
  const g = createFetchGate(...args);
  gates.push(g);
  return g;
};

beforeAll(async () => {
  publicServer = await startHttpServer((req, res) => {
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (to) res.writeHead(302, { location: to }).end();
    else if (req.url === "/same-host-redirect") res.writeHead(301, { location: "/landing" }).end();
    else res.end("public");
  });
  port = publicServer.port;
  privateServer = await startHttpServer((_req, res) => res.end("private secret"), "127.0.0.2", port);
});

afterAll(async () => {
  await Promise.all(gates.map((g) => g.close()));
  await Promise.all([publicServer.close(), privateServer.close()]);
});

const fetchVia = (g: FetchGate, url: string) => g.fetch({ url, timeoutMs: 5000 });

describe("literal addresses", () => {
  it.each([
    "http://127.0.0.1:PORT/",
    "http://2130706433:PORT/",
    "http://0x7f.1:PORT/",
    "http://0x7f000001:PORT/",
    "http://127.1:PORT/",
    "http://0177.0.0.1:PORT/",
    "http://127.0.0.1.:PORT/",
    "http://0:PORT/",
    "http://0.0.0.0:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::ffff:7f00:1]:PORT/",
    "http://[::1]:PORT/",
    "http://[::]:PORT/",
    "http://[64:ff9b::7f00:1]:PORT/",
    "http://[2002:7f00:1::]:PORT/",
    "http://[::127.0.0.1]:PORT/",
  ])("blocks %s before connecting", async (template) => {
    const { resolve, calls } = tableResolver({});
    const strict = gate({ allowPrivateNetwork: false, resolve });
    const before = publicServer.connections;
    const error = await failure(fetchVia(strict, template.replace("PORT", String(port))), "blocked");
    expect(error.url).toBeDefined();
    expect(error.message).toContain("allow-private-network");
    expect(publicServer.connections).toBe(before);
    expect(calls).toEqual([]);
  });

  it.each([
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://198.18.0.1/",
    "http://255.255.255.255/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://0xa9fea9fe/",
    "http://[fc00::1]/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    "https://192.168.1.1/",
  ])("blocks %s", async (url) => {
    const { resolve, calls } = tableResolver({});
    await failure(fetchVia(gate({ allowPrivateNetwork: false, resolve }), url), "blocked");
    expect(calls).toEqual([]);
  });
});

describe("host names", () => {
  it("fetches a name whose answers are all public", async () => {
    const { resolve } = tableResolver({ "public.test": ["127.0.0.1"] });
    const response = await fetchVia(gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] }), `http://public.test:${port}/`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("public");
  });

  it("blocks a name with any private answer", async () => {
    const { resolve } = tableResolver({ "mixed.test": ["127.0.0.1", "127.0.0.2"], "mapped.test": ["127.0.0.1", "::ffff:127.0.0.2"] });
    const g = gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
    const before = privateServer.connections + publicServer.connections;
    const error = await failure(fetchVia(g, `http://mixed.test:${port}/`), "blocked");
    expect(error.message).toContain("127.0.0.2");
    await failure(fetchVia(g, `http://mapped.test:${port}/`), "blocked");
    expect(privateServer.connections + publicServer.connections).toBe(before);
  });

  it("blocks localhost through its DNS answers", async () => {
    const { resolve } = tableResolver({ localhost: ["::1", "127.0.0.1"] });
    await failure(fetchVia(gate({ allowPrivateNetwork: false, resolve }), `http://localhost:${port}/`), "blocked");
  });

  it("connects to the address it checked when DNS rebinds", async () => {
    let answers = 0;
    const { resolve, calls } = tableResolver({ "rebind.test": () => (answers++ === 0 ? ["127.0.0.1"] : ["127.0.0.2"]) });
    const g = gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
    const before = privateServer.connections;
    const response = await fetchVia(g, `http://rebind.test:${port}/`);
    expect(response.body.toString()).toBe("public");
    expect(calls).toEqual(["rebind.test"]);
    await failure(fetchVia(g, `http://rebind.test:${port}/`), "blocked");
    expect(privateServer.connections).toBe(before);
  });

  it("re-checks the name on a same-host redirect", async () => {
    let answers = 0;
    const { resolve } = tableResolver({ "flip.test": () => (answers++ === 0 ? ["127.0.0.1"] : ["127.0.0.2"]) });
    const before = privateServer.connections;
    const g = gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
    const error = await failure(fetchVia(g, `http://flip.test:${port}/same-host-redirect`), "blocked");
    expect(error.url).toBe(`http://flip.test:${port}/landing`);
    expect(privateServer.connections).toBe(before);
  });

  it("reports a name that does not resolve as a network error", async () => {
    const { resolve } = tableResolver({});
    const error = await failure(fetchVia(gate({ allowPrivateNetwork: false, resolve }), "http://nowhere.test/"), "network");
    expect(error.message).toContain("ENOTFOUND");
    expect(error.cause).toBeDefined();
  });
});

describe("redirects to private targets and other schemes", () => {
  const targets = () => [`http://127.0.0.2:${port}/`, `http://private.test:${port}/`, `http://[::ffff:127.0.0.2]:${port}/`, `http://2130706434:${port}/`];

  it("blocks a public page redirecting to a private address at that hop", async () => {
    const { resolve } = tableResolver({ "public.test": ["127.0.0.1"], "private.test": ["127.0.0.2"] });
    const g = gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
    const before = privateServer.connections;
    for (const target of targets()) {
      const error = await failure(fetchVia(g, `http://public.test:${port}/?to=${encodeURIComponent(target)}`), "blocked");
      expect(error.url).toBe(new URL(target).href);
    }
    expect(privateServer.connections).toBe(before);
  });

  it.each(["file:///etc/passwd", "data:text/html,<h1>hi</h1>", "ftp://example.com/x", "javascript:alert(1)", "gopher://127.0.0.2:70/"])(
    "blocks a redirect to %s",
    async (target) => {
      const { resolve } = tableResolver({ "public.test": ["127.0.0.1"] });
      const g = gate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
      const error = await failure(fetchVia(g, `http://public.test:${port}/?to=${encodeURIComponent(target)}`), "blocked");
      expect(error.message).toContain("only http: and https:");
    },
  );

  it.each(["file:///etc/passwd", "data:text/plain,hello", "ftp://example.com/", "javascript:alert(1)"])("blocks a request for %s", async (url) => {
    const error = await failure(fetchVia(gate({ allowPrivateNetwork: true }), url), "blocked");
    expect(error.url).toBeDefined();
  });

  it("rejects a string that is not a URL as invalid input", async () => {
    await failure(fetchVia(gate({ allowPrivateNetwork: true }), "not a url"), "invalid-input");
  });
});

describe("allowPrivateNetwork", () => {
  it("lets loopback and private targets through", async () => {
    const g = gate({ allowPrivateNetwork: true });
    expect((await fetchVia(g, `http://127.0.0.1:${port}/`)).body.toString()).toBe("public");
    expect((await fetchVia(g, `http://127.0.0.2:${port}/`)).body.toString()).toBe("private secret");
    expect((await fetchVia(g, `http://127.0.0.1:${port}/?to=${encodeURIComponent(`http://127.0.0.2:${port}/`)}`)).status).toBe(200);
  });
});
