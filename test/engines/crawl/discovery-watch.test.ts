import { afterEach, describe, expect, it } from "vitest";
import type { DiscoveryResponse } from "../../../src/core/index.js";
import { mapSite } from "../../../src/engines/local/crawl/index.js";
import { gateWithWatch } from "../../../src/engines/local/discovery-watch.js";
import { mapRequest, startSite, type Site } from "./helpers.js";

let site: Site | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const form = `<html><body><form action="/login"><input type="password"></form></body></html>`;

describe("a watched discovery", () => {
  it("reports where each request ended, its status, and whether an HTML answer shows expiredWhen", async () => {
    site = await startSite(({ path }, res) => {
      if (path === "/robots.txt") res.writeHead(302, { location: "/login" }).end();
      else if (path === "/sitemap.xml") res.writeHead(401, { "content-type": "text/plain" }).end("sign in");
      else if (path === "/login") res.writeHead(200, { "content-type": "text/html" }).end(form);
      else if (path === "/") res.writeHead(200, { "content-type": "text/html" }).end(`<html><body>${form}<a href="/notes">notes</a></body></html>`);
      else res.writeHead(200, { "content-type": "text/plain" }).end(form);
    });
    const seen: DiscoveryResponse[] = [];
    const gate = gateWithWatch(site.gate, { expiredWhen: { selector: "input[type=password]" }, seen: (r) => seen.push(r) });
    await mapSite(gate, mapRequest(site.url("/")));
    const by = (path: string) => seen.find((r) => new URL(r.url).pathname === path);
    expect(by("/robots.txt")).toMatchObject({ finalUrl: site.url("/login"), status: 200, expiredShown: true });
    expect(by("/sitemap.xml")).toMatchObject({ status: 401, expiredShown: false });
    expect(by("/")).toMatchObject({ finalUrl: site.url("/"), status: 200, expiredShown: true });
    // A plain-text answer holding the same markup is no HTML page: it shows nothing.
    expect(by("/notes")).toMatchObject({ status: 200, expiredShown: false });
  });

  it("without expiredWhen reports every answer as not showing it", async () => {
    site = await startSite((_request, res) => res.writeHead(200, { "content-type": "text/html" }).end(form));
    const seen: DiscoveryResponse[] = [];
    await mapSite(gateWithWatch(site.gate, { seen: (r) => seen.push(r) }), mapRequest(site.url("/"), { sitemap: "skip" }));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => !r.expiredShown)).toBe(true);
  });
});
