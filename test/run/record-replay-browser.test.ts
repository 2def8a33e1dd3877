import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../helpers/site.js";
import { SqliteStore } from "../../src/store/index.js";
import { pipeline, readDocuments, runYaml, workdir } from "./helpers.js";
import { fixtureText } from "./fixture-packs.js";

const site = new FixtureSite();
const SECRETS = { authorization: "bearer-secret-8e21", cookie: "cookie-secret-51ab", setCookie: "set-cookie-secret-c3d0", token: "token-secret-77f4" };

beforeAll(async () => {
  // The page is asked with a token in its URL and redirected. Its text comes from its script, which asks an API (synchronously, so before `load`) and loads an image.
  site.route("/app", (_req, res) =>
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": `tok=${SECRETS.setCookie}; Path=/` })
      .end(`<!doctype html><html><head><title>App</title><link rel="stylesheet" href="/style.css"></head><body><main><h1>Shop</h1><p id="price">loading</p><img src="/pixel.svg" alt="pixel"></main><script src="/app.js"></script></body></html>`),
  );
  site.route("/app.js", (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/javascript" })
      .end(`var r = new XMLHttpRequest(); r.open("GET", "/api/price?currency=eur", false); r.send(); document.getElementById("price").textContent = "Price from the API: " + JSON.parse(r.responseText).price;`),
  );
  site.route("/api/price", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"price":42}'));
  site.route("/style.css", (_req, res) => res.writeHead(200, { "content-type": "text/css" }).end("body { color: #333; }"));
  site.route("/pixel.svg", (_req, res) => res.writeHead(200, { "content-type": "image/svg+xml" }).end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'));
  site.route("/old", (_req, res) => res.writeHead(302, { location: "/app" }).end());
  await site.start();
});
afterAll(async () => site.stop());

const yaml = (path = `/old?token=${SECRETS.token}`) =>
  pipeline(
    `  - id: page\n    scrape: { url: "${site.url}${path}", formats: [markdown], headers: { Authorization: "Bearer ${SECRETS.authorization}", Cookie: "sid=${SECRETS.cookie}" } }\n`,
    "engine: { kind: local, browser: always }\n",
  );


function failures(db: string, runId: number) {
  const store = new SqliteStore(db);
  try {
    return store.failures(runId);
  } finally {
    store.close();
  }
}

describe("record and replay of pages loaded in the browser", () => {
  const fixture = join(workdir(), "browser");
  let recorded = "";

  it("records the page, its redirect and every resource it loaded; no secret of the run is in the fixture", async () => {
    const { result, db } = await runYaml(yaml(), { env: {}, record: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status, JSON.stringify(failures(db, result.runId))).toBe("succeeded");
    recorded = readDocuments(db, result.runId, "page")[0]!.document.markdown ?? "";
    expect(recorded).toContain("Price from the API: 42");
    // The secrets did reach the site.
    expect(site.hits.get("/api/price")).toBe(1);

    const index = JSON.parse(readFileSync(join(fixture, "index.json"), "utf8"));
    expect(Object.keys(index.browser).sort()).toEqual(
      [`GET ${site.url}/old?token=REDACTED`, `GET ${site.url}/app`, `GET ${site.url}/app.js`, `GET ${site.url}/api/price?currency=eur`, `GET ${site.url}/style.css`, `GET ${site.url}/pixel.svg`].sort(),
    );
    expect(index.browser[`GET ${site.url}/old?token=REDACTED`]).toMatchObject({ status: 302 });
    const text = fixtureText(fixture);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it("replays the page with the site stopped: its script runs on the recorded answers", async () => {
    await site.stop();
    const { result, db } = await runYaml(yaml(), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status, JSON.stringify(failures(db, result.runId))).toBe("succeeded");
    const page = readDocuments(db, result.runId, "page")[0]!.document;
    expect(page.markdown).toBe(recorded);
    // The redirect was followed to where it led when recorded.
    expect(page.metadata.url).toBe(`${site.url}/app`);
  });

  it("fails the page with not-recorded and the URL of a resource the fixture does not hold", async () => {
    const path = join(fixture, "index.json");
    const index = JSON.parse(readFileSync(path, "utf8"));
    delete index.browser[`GET ${site.url}/api/price?currency=eur`];
    writeFileSync(path, JSON.stringify(index));
    const { result, db } = await runYaml(yaml(), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("failed");
    expect(failures(db, result.runId)).toEqual([expect.objectContaining({ kind: "not-recorded", error: expect.stringContaining(`not-recorded: GET ${site.url}/api/price?currency=eur (loaded in the browser) is not in the fixture`) })]);
  });

  it("fails a page that was never recorded with not-recorded and its URL", async () => {
    const { result, db } = await runYaml(yaml("/elsewhere"), { env: {}, replay: fixture });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(failures(db, result.runId)).toEqual([expect.objectContaining({ kind: "not-recorded", error: expect.stringContaining(`not-recorded: GET ${site.url}/elsewhere (loaded in the browser)`) })]);
  });
});
