#!/usr/bin/env node
// `npm run demo`: serves demo/site/ on 127.0.0.1 (a free port) and runs pipelines/demo.yaml
// against it on the embedded engine, with its own database (data/demo.db).
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const site = join(root, "demo", "site");
const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".ico": "image/x-icon" };

const server = createServer(async (req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  if (path.endsWith("/")) path += "index.html";
  const file = join(site, path);
  if (!file.startsWith(site)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
  }
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}`;
  console.error(`demo site at ${url}\n`);
  const extra = process.argv.slice(2);
  const db = extra.includes("--db") ? extra[extra.indexOf("--db") + 1] : join("data", "demo.db");
  const child = spawn(
    process.execPath,
    [join(root, "dist/cli/main.js"), "run", join(root, "pipelines/demo.yaml"), "--allow-private-network", "--db", db, "--var", `SCRAPELINE_DEMO_URL=${url}`, ...extra.filter((a, i) => a !== "--db" && extra[i - 1] !== "--db")],
    { stdio: "inherit" },
  );
  process.on("SIGINT", () => {}); // the child handles Ctrl-C; the server stays up until it exits
  child.on("exit", (code) => {
    server.close();
    if (code === 0) {
      console.error(`\nThe pages are stored in ${db}. Look at them with:`);
      console.error(`  npx scrapeline runs --db ${db}`);
      console.error(`  npx scrapeline export --db ${db} --format markdown --out demo-pages/`);
      console.error(`  npx scrapeline export --db ${db} --step prices --format csv   # the books' data, extracted without a model`);
    }
    process.exitCode = code ?? 1;
  });
});
