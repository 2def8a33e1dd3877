import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasOpenssl, selfSignedCert } from "../helpers/tls.js";
import { FixtureSite } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

/**
 * The page cache is shared by every team of a server: a page may answer a request only when it was
 * fetched the way that request would fetch it, and trusted the way it would trust it.
 */


let serve: Serve;
let site: FixtureSite;

/** A page that shows what the request carried: the cookie, the languages asked for, the user agent. */
function echo(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, hits: number): void {
  const body = `<p>cookie=${req.headers.cookie ?? "none"} lang=${req.headers["accept-language"] ?? "none"} mobile=${/Mobile/.test(req.headers["user-agent"] ?? "")} hit=${hits}</p>`;
  res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><head><title>Echo</title></head><body><main>${body}</main></body></html>`);
}

beforeAll(async () => {
  site = new FixtureSite();
  for (const name of ["headers", "headers-read", "proxy", "location", "mobile", "actions", "wait"]) site.route(`/${name}`, echo);
  await site.start();
  serve = await startServe({ a: {}, b: {} });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

const scrape = (team: string, url: string, extra: Record<string, unknown> = {}) => serve.call("POST", "/v2/scrape", { key: serve.keys[team]!, body: { url, ...extra } });

describe.skipIf(!hasOpenssl())("TLS verification", () => {
  let https: import("node:https").Server;
  let url = "";

  beforeAll(async () => {
    https = createServer(selfSignedCert("untrusted.test"), (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><head><title>Untrusted</title></head><body><main><p>served without a trusted certificate</p></main></body></html>");
    });
    await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    https.closeAllConnections();
    await new Promise<void>((resolve) => https.close(() => resolve()));
  });

  it("a page fetched without verification never answers a request that verifies", async () => {
    const first = await scrape("b", url, { skipTlsVerification: false });
    expect(first.status).toBeGreaterThanOrEqual(400);
    const unverified = await scrape("a", url);
    expect(unverified.status).toBe(200);
    expect(unverified.body.data.markdown).toContain("served without a trusted certificate");
    const again = await scrape("b", url, { skipTlsVerification: false });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.success).toBe(false);
    // The unverified copy still answers requests that skip verification.
    const skipping = await scrape("b", url, { skipTlsVerification: true });
    expect(skipping.body.data.metadata.cacheState).toBe("hit");
  });
});

describe("request options", () => {
  it("a page fetched with custom headers (a session cookie) is not cached for others", async () => {
    const withCookie = await scrape("a", `${site.url}/headers`, { headers: { cookie: "session=team-a" } });
    expect(withCookie.body.data.markdown).toContain("cookie=session=team-a");
    const plain = await scrape("b", `${site.url}/headers`);
    expect(plain.body.data.markdown).toContain("cookie=none");
    expect(plain.body.data.metadata.cacheState).not.toBe("hit");
  });

  it("a request with custom headers never reads the cache", async () => {
    const plain = await scrape("a", `${site.url}/headers-read`);
    expect(plain.body.data.markdown).toContain("cookie=none");
    const withCookie = await scrape("b", `${site.url}/headers-read`, { headers: { cookie: "session=team-b" } });
    expect(withCookie.body.data.markdown).toContain("cookie=session=team-b");
    expect(withCookie.body.data.metadata.cacheState).not.toBe("hit");
  });

  it("proxy is part of the key", async () => {
    await scrape("a", `${site.url}/proxy`, { proxy: "enhanced" });
    const basic = await scrape("b", `${site.url}/proxy`, { proxy: "basic" });
    expect(basic.body.data.metadata.cacheState).not.toBe("hit");
    expect(site.hits.get("/proxy")).toBe(2);
    const again = await scrape("b", `${site.url}/proxy`, { proxy: "basic" });
    expect(again.body.data.metadata.cacheState).toBe("hit");
  });

  it("location is part of the key", async () => {
    const german = await scrape("a", `${site.url}/location`, { location: { country: "DE", languages: ["de-DE"] } });
    expect(german.body.data.markdown).toContain("lang=de-DE");
    const plain = await scrape("b", `${site.url}/location`);
    expect(plain.body.data.markdown).not.toContain("lang=de-DE");
    expect(plain.body.data.metadata.cacheState).not.toBe("hit");
  });

  it("mobile is part of the key", async () => {
    const mobile = await scrape("a", `${site.url}/mobile`, { mobile: true });
    expect(mobile.status).toBe(200);
    expect(mobile.body.data.markdown).toContain("mobile=true");
    const desktop = await scrape("b", `${site.url}/mobile`);
    expect(desktop.body.data.markdown).toContain("mobile=false");
    expect(desktop.body.data.metadata.cacheState).not.toBe("hit");
  });

  it("waitFor is part of the key: a page rendered after a wait does not answer a request without one", async () => {
    const waited = await scrape("a", `${site.url}/wait`, { waitFor: 200 });
    expect(waited.status).toBe(200);
    const plain = await scrape("b", `${site.url}/wait`);
    expect(plain.body.data.metadata.cacheState).not.toBe("hit");
    expect(site.hits.get("/wait")).toBe(2);
  });

  it("a page changed by actions is not cached, and a request with actions never reads the cache", async () => {
    const acted = await scrape("a", `${site.url}/actions`, { actions: [{ type: "executeJavascript", script: "document.querySelector('main').innerHTML = '<p>rewritten by team a</p>'" }] });
    expect(acted.status).toBe(200);
    expect(acted.body.data.markdown).toContain("rewritten by team a");
    const plain = await scrape("b", `${site.url}/actions`);
    expect(plain.body.data.markdown).not.toContain("rewritten");
    expect(plain.body.data.metadata.cacheState).not.toBe("hit");
    const acting = await scrape("b", `${site.url}/actions`, { actions: [{ type: "wait", milliseconds: 1 }] });
    expect(acting.body.data.metadata.cacheState).not.toBe("hit");
  });
});
