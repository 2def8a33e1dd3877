import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey, type TeamSettings } from "../../src/app/index.js";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";

export interface Serve {
  server: RunningServer;
  db: string;
  dir: string;
  keys: Record<string, string>;
  call: (method: string, path: string, options?: { key?: string | null; body?: unknown; raw?: string }) => Promise<{ status: number; body: any; headers: Headers }>;
  stop: () => Promise<void>;
}

/** serve on 127.0.0.1:0 over a new database, with a key per team (private network allowed for the fixture sites). */
export async function startServe(teams: Record<string, TeamSettings>, options: Partial<ServerOptions> = {}): Promise<Serve> {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-serve-"));
  const db = options.db ?? join(dir, "serve.db");
  const keys: Record<string, string> = {};
  for (const [name, settings] of Object.entries(teams)) keys[name] = createKey(db, name, settings).key;
  const server = await startServer({ db, port: 0, allowPrivateNetwork: true, env: {}, ...options });
  const first = Object.values(keys)[0];
  const call: Serve["call"] = async (method, path, opts = {}) => {
    const key = opts.key === undefined ? first : opts.key;
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    server,
    db,
    dir,
    keys,
    call,
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A site of `pages` pages: / links to /p/0 … /p/N-1, each page links to the next. */
export async function chainSite(pages: number, options: { slow?: boolean } = {}): Promise<FixtureSite> {
  const site = new FixtureSite();
  const links = Array.from({ length: pages }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(" ");
  site.page("/", htmlPage("Home", `<p>Index</p>${links}`));
  site.page("/robots.txt", "");
  for (let i = 0; i < pages; i++) {
    const html = htmlPage(`Page ${i}`, `<p>Text of page ${i}.</p><a href="/p/${i + 1}">next</a>`);
    if (options.slow) {
      site.route(`/p/${i}`, async (_req, res) => {
        await new Promise((r) => setTimeout(r, 50));
        res.writeHead(200, { "content-type": "text/html" }).end(html);
      });
    } else site.page(`/p/${i}`, html);
  }
  return site.start();
}

export async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not reached");
}
