import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { failure, startHttpServer, tableResolver, type TestServer } from "./servers.js";

let server: TestServer;
let gate: FetchGate;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const path = req.url ?? "/";
    const hop = /^\/hop\/(\d+)$/.exec(path);
    const chain: Record<string, [number, string]> = {
      "/a": [301, "/b"],
      "/b": [302, "c"],
      "/c": [303, "/d?x=1"],
      "/d?x=1": [307, `http://public.test:${server.port}/e`],
      "/e": [308, "/f"],
      "/loop1": [302, "/loop2"],
      "/loop2": [302, "/loop1"],
      "/self": [301, "/self"],
      "/deep/dir/page": [302, "../up?q=1"],
      "/to-other-host": [302, `http://other.test:${server.port}/echo`],
      "/to-same-host": [302, "/echo"],
    };
    const redirect = chain[path];
    if (redirect) res.writeHead(redirect[0], { location: redirect[1] }).end("moved");
    else if (hop) {
      const n = Number(hop[1]);
      if (n < 21) res.writeHead(302, { location: `/hop/${n + 1}` }).end();
      else res.end(`arrived after hop ${n}`);
    } else if (path === "/no-location") res.writeHead(302).end("nowhere to go");
    else if (path === "/echo") res.end(JSON.stringify(req.headers));
    else res.end(`page ${path}`);
  });
  const { resolve } = tableResolver({ "public.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
  gate = createFetchGate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
});

afterAll(async () => {
  await gate.close();
  await server.close();
});

const base = () => `http://public.test:${server.port}`;

describe("redirects", () => {
  it("follows 301, 302, 303, 307 and 308 and lists each hop", async () => {
    const response = await gate.fetch({ url: `${base()}/a`, timeoutMs: 5000 });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("page /f");
    expect(response.url).toBe(`${base()}/f`);
    expect(response.redirects).toEqual([`${base()}/b`, `${base()}/c`, `${base()}/d?x=1`, `${base()}/e`, `${base()}/f`]);
  });

  it("resolves a relative Location against the current URL", async () => {
    const response = await gate.fetch({ url: `${base()}/deep/dir/page`, timeoutMs: 5000 });
    expect(response.url).toBe(`${base()}/deep/up?q=1`);
  });

  it("follows 20 hops", async () => {
    const response = await gate.fetch({ url: `${base()}/hop/1`, timeoutMs: 10_000 });
    expect(response.redirects).toHaveLength(20);
    expect(response.body.toString()).toBe("arrived after hop 21");
  });

  it("stops at the 21st hop with an error naming the chain", async () => {
    const error = await failure(gate.fetch({ url: `${base()}/hop/0`, timeoutMs: 10_000 }), "http-status");
    expect(error.message).toContain("more than 20 redirects");
    expect(error.message).toContain(`${base()}/hop/0 → ${base()}/hop/1`);
    expect(error.message).toContain(`${base()}/hop/21`);
    expect(error.url).toBe(`${base()}/hop/0`);
    expect(error.status).toBe(302);
  });

  it("honours a lower maxRedirects", async () => {
    const error = await failure(gate.fetch({ url: `${base()}/a`, timeoutMs: 5000, maxRedirects: 2 }), "http-status");
    expect(error.message).toContain("more than 2 redirects");
  });

  it("stops a loop with an error naming the chain", async () => {
    const error = await failure(gate.fetch({ url: `${base()}/loop1`, timeoutMs: 5000, headers: { Authorization: "Bearer hunter2" } }), "http-status");
    expect(error.message).toBe(`redirect loop: ${base()}/loop1 → ${base()}/loop2 → ${base()}/loop1`);
    expect(error.message).not.toContain("hunter2");
    expect((await failure(gate.fetch({ url: `${base()}/self`, timeoutMs: 5000 }), "http-status")).status).toBe(301);
  });

  it("returns a redirect without Location as a response", async () => {
    const response = await gate.fetch({ url: `${base()}/no-location`, timeoutMs: 5000 });
    expect(response.status).toBe(302);
    expect(response.body.toString()).toBe("nowhere to go");
    expect(response.redirects).toEqual([]);
  });

  it("keeps credentials on the same origin and drops them when the origin changes", async () => {
    const headers = { Authorization: "Bearer hunter2", Cookie: "session=1", "X-Other": "kept" };
    const same = JSON.parse((await gate.fetch({ url: `${base()}/to-same-host`, timeoutMs: 5000, headers })).body.toString());
    expect(same.authorization).toBe("Bearer hunter2");
    const other = JSON.parse((await gate.fetch({ url: `${base()}/to-other-host`, timeoutMs: 5000, headers })).body.toString());
    expect(other.authorization).toBeUndefined();
    expect(other.cookie).toBeUndefined();
    expect(other["x-other"]).toBe("kept");
    expect(other.host).toBe(`other.test:${server.port}`);
  });

  it("masks a password written in the URL in errors", async () => {
    const error = await failure(gate.fetch({ url: `http://user:pa55word@public.test:${server.port}/loop1`, timeoutMs: 5000 }), "http-status");
    expect(error.message).not.toContain("pa55word");
    expect(error.url).not.toContain("pa55word");
  });
});
