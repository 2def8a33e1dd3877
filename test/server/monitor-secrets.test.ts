import { createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.js";
import { SqliteStore } from "../../src/store/index.js";
import { HookServer } from "../helpers/hook.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, waitFor, type Serve } from "./helpers.js";

/** A monitor's webhook secret is kept encrypted under SCRAPELINE_SECRET_KEY, never in clear. */

const KEY = { SCRAPELINE_SECRET_KEY: "monitor-secrets-test-key" };
const SECRET = "hook-secret-4f9a2c";
const site = new FixtureSite();
const hook = new HookServer();
let hookUrl = "";
const open: Serve[] = [];

let served = 0;

/** The Authorization header of each request of the site's /item. */
const authorizations: string[] = [];

beforeAll(async () => {
  // A new price on every fetch: every check finds a change and notifies.
  site.route("/item", (req, res) => {
    authorizations.push(String(req.headers.authorization));
    res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Item", `<p>price ${++served}</p>`));
  });
  await site.start();
  hookUrl = `${await hook.start()}/hook`;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await hook.stop();
  await site.stop();
});

async function serveWith(env: Record<string, string>): Promise<Serve> {
  const serve = await startServe({ a: {} }, { env });
  open.push(serve);
  return serve;
}

const monitorBody = (webhook: unknown, scrapeOptions?: unknown) => ({ name: "item", schedule: { cron: "0 * * * *", timezone: "UTC" }, targets: [{ type: "scrape", urls: [`${site.url}/item`], ...(scrapeOptions ? { scrapeOptions } : {}) }], ...(webhook ? { webhook } : {}) });

/** Every plan stored with the database's runs. */
function plans(db: string): string {
  const store = new SqliteStore(db);
  try {
    return store.listRuns().map((r) => store.runPlan(r.id) ?? "").join("\n");
  } finally {
    store.close();
  }
}

/** Every byte of the database: its file and, while the server has it open, its write-ahead log. */
function databaseBytes(db: string): string {
  return [db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString("latin1")).join("");
}

function definitionOf(db: string, id: string): string {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare("SELECT definition FROM monitors WHERE key = ?").pluck().get(`api:${id}`) as string;
  } finally {
    conn.close();
  }
}

async function runCheck(serve: Serve, id: string): Promise<any> {
  const run = await serve.call("POST", `/v2/monitor/${id}/run`);
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  return (await waitFor(() => serve.call("GET", `/v2/monitor/${id}/checks/${run.body.data.id}`), (r) => r.body.data.status !== "running")).body.data;
}

const signedWith = (secret: string) => hook.received.some((r) => r.headers["x-scrapeline-signature"] === `sha256=${createHmac("sha256", secret).update(r.body).digest("hex")}`);

describe("webhook secrets at rest", () => {
  it("stores a monitor's webhook secret encrypted: neither the row nor the database file holds it, and checks still sign with it", async () => {
    const serve = await serveWith(KEY);
    const made = await serve.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl, secret: SECRET }) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    expect(made.body.data.webhook).toEqual({ url: hookUrl, events: expect.any(Array), signed: true });
    expect(definitionOf(serve.db, id)).not.toContain(SECRET);
    expect(definitionOf(serve.db, id)).toContain('"sealedSecret":"aes-256-gcm:');
    expect(databaseBytes(serve.db)).not.toContain(SECRET);

    hook.received.length = 0;
    const check = await runCheck(serve, id);
    expect(check.status).toBe("completed");
    expect(hook.received.length).toBeGreaterThan(0);
    expect(signedWith(SECRET)).toBe(true);
    // A change that leaves the webhook alone keeps its secret.
    const renamed = await serve.call("PATCH", `/v2/monitor/${id}`, { body: { name: "renamed" } });
    expect(renamed.body.data.webhook.signed).toBe(true);
    hook.received.length = 0;
    await runCheck(serve, id);
    expect(signedWith(SECRET)).toBe(true);
    expect(databaseBytes(serve.db)).not.toContain(SECRET);
  });

  it("stores a target's request headers encrypted too; checks send them, and the plans stored with their runs name variables instead", async () => {
    const TOKEN = "Bearer hdr-token-80412";
    const serve = await serveWith(KEY);
    const made = await serve.call("POST", "/v2/monitor", { body: monitorBody(undefined, { headers: { Authorization: TOKEN } }) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    expect(made.body.data.targets[0].scrapeOptions.headers.Authorization).toMatch(/^aes-256-gcm:/);
    expect(databaseBytes(serve.db)).not.toContain("hdr-token-80412");
    authorizations.length = 0;
    expect((await runCheck(serve, id)).status).toBe("completed");
    expect(authorizations).toEqual([TOKEN]);
    // A monitor read back and sent again as it was keeps its headers.
    const again = await serve.call("PATCH", `/v2/monitor/${id}`, { body: { targets: made.body.data.targets } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    authorizations.length = 0;
    await runCheck(serve, id);
    expect(authorizations).toEqual([TOKEN]);
    expect(plans(serve.db)).toContain("${SCRAPELINE_MONITOR_HEADER_1_1}");
    expect(plans(serve.db)).not.toContain("hdr-token-80412");
    expect(databaseBytes(serve.db)).not.toContain("hdr-token-80412");
  });

  it("refuses a secret when the server has no SCRAPELINE_SECRET_KEY, on create and on update; webhooks without one are kept", async () => {
    const serve = await serveWith({});
    const refused = await serve.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl, secret: SECRET }) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Bad Request: webhook\.secret: .*SCRAPELINE_SECRET_KEY/);
    const plain = await serve.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl }) });
    expect(plain.status).toBe(200);
    const patched = await serve.call("PATCH", `/v2/monitor/${plain.body.data.id}`, { body: { webhook: { url: hookUrl, secret: SECRET } } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain("SCRAPELINE_SECRET_KEY");
    const headers = await serve.call("POST", "/v2/monitor", { body: monitorBody(undefined, { headers: { Authorization: "Bearer hdr-nokey-1" } }) });
    expect(headers.status).toBe(400);
    expect(headers.body.error).toMatch(/^Bad Request: targets\[0\]\.scrapeOptions\.headers\.Authorization: .*SCRAPELINE_SECRET_KEY/);
    expect(databaseBytes(serve.db)).not.toContain(SECRET);
    expect(databaseBytes(serve.db)).not.toContain("hdr-nokey-1");
  });

  it("reads a secret stored in clear by an earlier version, and encrypts it when the monitor next changes", async () => {
    const serve = await serveWith(KEY);
    const id = (await serve.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl }) })).body.data.id as string;
    const conn = new Database(serve.db);
    conn.prepare("UPDATE monitors SET definition = json_set(definition, '$.webhook.secret', ?) WHERE key = ?").run("legacy-secret-77", `api:${id}`);
    conn.close();
    expect((await serve.call("GET", `/v2/monitor/${id}`)).body.data.webhook.signed).toBe(true);
    hook.received.length = 0;
    await runCheck(serve, id);
    expect(signedWith("legacy-secret-77")).toBe(true);
    await serve.call("PATCH", `/v2/monitor/${id}`, { body: { retentionDays: 5 } });
    expect(definitionOf(serve.db, id)).not.toContain("legacy-secret-77");
    hook.received.length = 0;
    await runCheck(serve, id);
    expect(signedWith("legacy-secret-77")).toBe(true);
  });

  it("a check whose secret cannot be decrypted (the server started without the key) fails saying so, and sends nothing unsigned", async () => {
    const first = await serveWith(KEY);
    const id = (await first.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl, secret: SECRET }) })).body.data.id as string;
    await first.server.close();
    const server = await startServer({ db: first.db, port: 0, allowPrivateNetwork: true, env: {} });
    try {
      const again: Serve = { ...first, server, call: (method, path, options) => fetchFrom(server.url, first.keys.a!, method, path, options?.body) };
      hook.received.length = 0;
      const check = await runCheck(again, id);
      expect(check.status).toBe("failed");
      expect(check.error).toContain("SCRAPELINE_SECRET_KEY");
      expect(hook.received).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

async function fetchFrom(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
