import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionCookie, SessionHandle, SessionState } from "../../src/core/index.js";
import { cookieHeader, createFetchGate, parseSetCookie, sessionJar, type FetchGate } from "../../src/engines/local/fetch/index.js";
import { startHttpServer, tableResolver, type TestServer } from "../engines/fetch/servers.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const cookie = (over: Partial<SessionCookie>): SessionCookie => ({ name: "sid", value: "v", domain: "shop.test", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax", ...over });

describe("cookies of a session over HTTP", () => {
  it("go to the host they belong to (or its subdomains for a domain cookie), on their path, until they expire", () => {
    const cookies = [
      cookie({ name: "host", value: "1" }),
      cookie({ name: "wide", value: "2", domain: ".shop.test" }),
      cookie({ name: "deep", value: "3", path: "/account" }),
      cookie({ name: "old", value: "4", expires: NOW / 1000 - 1 }),
      cookie({ name: "tls", value: "5", secure: true }),
    ];
    expect(cookieHeader(cookies, new URL("http://shop.test/account/orders"), NOW)).toBe("deep=3; host=1; wide=2");
    expect(cookieHeader(cookies, new URL("https://shop.test/"), NOW)).toBe("host=1; wide=2; tls=5");
    expect(cookieHeader(cookies, new URL("http://eu.shop.test/accounting"), NOW)).toBe("wide=2");
    expect(cookieHeader(cookies, new URL("http://other.test/"), NOW)).toBeUndefined();
    expect(cookieHeader(cookies, new URL("http://notshop.test/"), NOW)).toBeUndefined();
  });

  it("are read from Set-Cookie: attributes, Max-Age over Expires, a foreign Domain refused", () => {
    const url = new URL("http://www.shop.test/account/login");
    expect(parseSetCookie("sid=abc; Path=/; HttpOnly; Secure; SameSite=Strict", url, NOW)).toEqual(cookie({ value: "abc", domain: "www.shop.test", secure: true, sameSite: "Strict" }));
    expect(parseSetCookie("a=1", url, NOW)).toMatchObject({ path: "/account", domain: "www.shop.test", expires: -1 });
    expect(parseSetCookie("a=1; Domain=shop.test; Max-Age=60; Expires=Wed, 21 Oct 2015 07:28:00 GMT", url, NOW)).toMatchObject({ domain: ".shop.test", expires: NOW / 1000 + 60 });
    expect(parseSetCookie("a=1; Max-Age=0", url, NOW)?.expires).toBe(0);
    expect(parseSetCookie("a=1; Domain=evil.test", url, NOW)).toBeUndefined();
    expect(parseSetCookie("no-equals-sign", url, NOW)).toBeUndefined();
  });
});

let server: TestServer;
let gate: FetchGate;
const seen: Array<{ host: string; cookie: string }> = [];

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    seen.push({ host: req.headers.host ?? "", cookie: req.headers.cookie ?? "" });
    if (req.url === "/login-redirect") res.writeHead(302, { location: "/landing", "set-cookie": ["step=1; Path=/", "gone=x; Max-Age=0"] }).end();
    else if (req.url === "/away") res.writeHead(302, { location: `http://other.test:${server.port}/there` }).end();
    else res.end("ok");
  });
  const { resolve } = tableResolver({ "shop.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
  gate = createFetchGate({ allowPrivateNetwork: false, resolve, treatAsPublic: ["127.0.0.1/32"] });
});

afterAll(async () => {
  await gate.close();
  await server.close();
});

function handle(initial: SessionCookie[]): SessionHandle & { current: SessionState } {
  const holder = {
    name: "s",
    current: { cookies: initial, origins: [] } as SessionState,
    state: () => holder.current,
    update: (cookies: readonly SessionCookie[]) => {
      const rest = holder.current.cookies.filter((c) => !cookies.some((n) => n.name === c.name && n.domain === c.domain && n.path === c.path));
      holder.current = { ...holder.current, cookies: [...rest, ...cookies].filter((c) => c.expires < 0 || c.expires * 1000 > Date.now()) };
    },
  };
  return holder;
}

describe("the fetch gate with a session", () => {
  it("sends the session's cookies at every hop of its host, takes each hop's Set-Cookie, and sends none to another host", async () => {
    seen.length = 0;
    const session = handle([cookie({ domain: "shop.test", value: "secret-sid" }), cookie({ name: "gone", value: "y", domain: "shop.test" })]);
    const jar = sessionJar(session);
    await gate.fetch({ url: `http://shop.test:${server.port}/login-redirect`, timeoutMs: 5000, cookies: jar });
    expect(seen.map((s) => s.cookie)).toEqual(["sid=secret-sid; gone=y", "sid=secret-sid; step=1"]);
    await gate.fetch({ url: `http://shop.test:${server.port}/away`, timeoutMs: 5000, cookies: jar });
    expect(seen.slice(2)).toEqual([
      { host: `shop.test:${server.port}`, cookie: "sid=secret-sid; step=1" },
      { host: `other.test:${server.port}`, cookie: "" },
    ]);
  });
});
