import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteMonitorTables, SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "../server/helpers.js";

/** serve mounts the UI at /ui behind its team keys; a team sees the runs of its own jobs only. */
let serve: Serve;
const site = new FixtureSite();
let runOf: Record<string, string> = {};


beforeAll(async () => {
  site.page("/alpha", htmlPage("Alpha", "<p>Alpha's page</p>")).page("/beta", htmlPage("Beta", "<p>Beta's page</p>"));
  await site.start();
  serve = await startServe({ alpha: {}, beta: {} });
  for (const [team, path] of [["alpha", "/alpha"], ["beta", "/beta"]] as const) {
    const r = await serve.call("POST", "/v2/scrape", { key: serve.keys[team]!, body: { url: `${site.url}${path}` } });
    expect(r.status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await serve.stop();
  await site.stop();
});

const basic = (key: string) => `Basic ${Buffer.from(`anyone:${key}`).toString("base64")}`;

async function get(path: string, authorization?: string) {
  const res = await fetch(`${serve.server.url}${path}`, { headers: authorization ? { authorization } : {}, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("serve's /ui", () => {
  it("asks a browser for a key, and refuses a wrong one", async () => {
    for (const auth of [undefined, basic("fc-wrong"), "Bearer fc-wrong", "Basic !!!"]) {
      const r = await get("/ui/", auth);
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Basic realm="scrapeline"/);
      expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(r.text).not.toContain("alpha");
    }
  });

  it("shows a team its own runs, with a key as the Basic password or a Bearer token", async () => {
    const alpha = await get("/ui/", basic(serve.keys.alpha!));
    expect(alpha.status).toBe(200);
    expect(alpha.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(alpha.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(alpha.text).toContain('href="/ui/assets/ui.css"');
    const alphaRuns = [...alpha.text.matchAll(/data-run="(\d+)"/g)].map((m) => m[1]!);
    const beta = await get("/ui/", `Bearer ${serve.keys.beta!}`);
    const betaRuns = [...beta.text.matchAll(/data-run="(\d+)"/g)].map((m) => m[1]!);
    expect(alphaRuns).toHaveLength(1);
    expect(betaRuns).toHaveLength(1);
    expect(alphaRuns[0]).not.toBe(betaRuns[0]);
    runOf = { alpha: alphaRuns[0]!, beta: betaRuns[0]! };
    const page = await get(`/ui/runs/${runOf.alpha}/doc?step=request&url=${encodeURIComponent(`${site.url}/alpha`)}`, basic(serve.keys.alpha!));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Alpha&#39;s page");
    const run = await get(`/ui/runs/${runOf.alpha}`, basic(serve.keys.alpha!));
    expect(run.status).toBe(200);
    expect(run.text).toContain(`${site.url}/alpha`);
  });

  it("does not show one team's run to another", async () => {
    const r = await get(`/ui/runs/${runOf.alpha}`, basic(serve.keys.beta!));
    expect(r.status).toBe(404);
    expect(r.text).not.toContain(`${site.url}/alpha`);
    const changes = await get(`/ui/runs/${runOf.alpha}/changes`, basic(serve.keys.beta!));
    expect(changes.status).toBe(404);
    const doc = await get(`/ui/runs/${runOf.alpha}/doc?step=request&url=${encodeURIComponent(`${site.url}/alpha`)}`, basic(serve.keys.beta!));
    expect(doc.status).toBe(404);
    expect(doc.text).not.toContain("Alpha&#39;s page");
  });

  it("serves a stored screenshot only from a document of a run the team can see", async () => {
    const shot = await serve.call("POST", "/v2/scrape", { key: serve.keys.alpha!, body: { url: `${site.url}/alpha`, formats: ["markdown", "screenshot"] } });
    expect(shot.status).toBe(200);
    const list = await get("/ui/", basic(serve.keys.alpha!));
    const shotRun = Math.max(...[...list.text.matchAll(/data-run="(\d+)"/g)].map((m) => Number(m[1])));
    const docPath = `/ui/runs/${shotRun}/doc?step=request&url=${encodeURIComponent(`${site.url}/alpha`)}`;
    const doc = await get(docPath, basic(serve.keys.alpha!));
    expect(doc.status).toBe(200);
    const src = /<img src="([^"]+)"/.exec(doc.text)![1]!.replaceAll("&amp;", "&");
    const ref = new URL(src, serve.server.url).searchParams.get("ref")!;
    expect(ref).toMatch(/^blob:sha256:[0-9a-f]{64};type=image\//);
    const own = await fetch(`${serve.server.url}${src}`, { headers: { authorization: basic(serve.keys.alpha!) } });
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toMatch(/^image\//);
    // Another team: with the same link, by the hash alone, or by claiming its own run's document holds it.
    const betaUrl = encodeURIComponent(`${site.url}/beta`);
    for (const path of [src, `/ui/asset?ref=${encodeURIComponent(ref)}`, `/ui/asset?ref=${encodeURIComponent(ref)}&run=${runOf.beta}&step=request&url=${betaUrl}`]) {
      const r = await get(path, basic(serve.keys.beta!));
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    }
    // The owner too needs the document: the hash alone is not enough.
    expect((await get(`/ui/asset?ref=${encodeURIComponent(ref)}`, basic(serve.keys.alpha!))).status).toBe(404);
  });

  it("shows a team its own monitors only, and the runs of their checks", async () => {
    const store = new SqliteStore(serve.db);
    let ids: { alpha: number; file: number; run: number };
    try {
      const alphaTeam = store.db.prepare("SELECT id FROM serve_teams WHERE name = 'alpha'").pluck().get() as number;
      const tables = new SqliteMonitorTables(store.db);
      const schedule = { everySeconds: 3600, timezone: "UTC", jitterSeconds: 0, missed: "skip" as const, minIntervalSeconds: 60 };
      ids = {
        alpha: tables.upsert({ key: `api:${alphaTeam}:alpha-watch`, source: "api", teamId: alphaTeam, name: "alpha-watch", schedule, definition: {} }).id,
        file: tables.upsert({ key: "file:local-watch", source: "file", name: "local-watch", file: "/srv/local.yaml", schedule }).id,
        run: store.createRun({ pipelineName: "alpha-watch", pipelineFile: "monitor", pipelineHash: "h", planJson: "{}", engine: "local" }).id,
      };
      store.finishRun(ids.run, "succeeded");
      const check = tables.claim(ids.alpha, "2026-11-24T05:00:00.000Z", { trigger: "schedule", status: "running" })!;
      tables.setCheckRun(check.id, ids.run);
      tables.finishCheck(check.id, "completed", {});
    } finally {
      store.close();
    }
    const alpha = await get("/ui/monitors", basic(serve.keys.alpha!));
    expect(alpha.status).toBe(200);
    expect([...alpha.text.matchAll(/data-monitor="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([ids.alpha]);
    expect(alpha.text).toContain('href="/ui/monitors/');
    const page = await get(`/ui/monitors/${ids.alpha}`, basic(serve.keys.alpha!));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/ui/runs/${ids.run}"`);
    expect((await get(`/ui/runs/${ids.run}`, basic(serve.keys.alpha!))).status).toBe(200);
    expect((await get("/ui/", basic(serve.keys.alpha!))).text).toContain(`data-run="${ids.run}"`);
    expect((await get(`/ui/runs/${ids.run}`, basic(serve.keys.beta!))).status).toBe(404);
    expect((await get("/ui/", basic(serve.keys.beta!))).text).not.toContain(`data-run="${ids.run}"`);
    const beta = await get("/ui/monitors", basic(serve.keys.beta!));
    expect(beta.text).not.toContain("alpha-watch");
    expect(beta.text).not.toContain("local-watch");
    for (const id of [ids.alpha, ids.file]) expect((await get(`/ui/monitors/${id}`, basic(serve.keys.beta!))).status).toBe(404);
  });

  it("redirects /ui to /ui/, reads only, and leaves the API as it was", async () => {
    const bare = await get("/ui", basic(serve.keys.alpha!));
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/ui/");
    const post = await fetch(`${serve.server.url}/ui/`, { method: "POST", headers: { authorization: basic(serve.keys.alpha!) } });
    expect(post.status).toBe(405);
    const api = await serve.call("GET", "/v2/team/token-usage");
    expect(api.status).toBe(200);
  });
});
