// The demo bookshop: serves demo/site/ on 127.0.0.1. `edit()` changes one book page in memory (the
// files stay as they are), so a second run of the demo pipeline has a change to report.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

/** The port pipelines/demo.yaml assumes when SCRAPELINE_DEMO_URL is not given. */
export const DEFAULT_PORT = 8787;

const SITE = fileURLToPath(new URL("../demo/site/", import.meta.url));
const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".ico": "image/x-icon" };

/** The change `edit()` makes: Moby Diff, sold out at £15.00, is back in stock at £12.00. */
export const EDIT = {
  path: "/books/moby-diff.html",
  from: '<span itemprop="price">£15.00</span> · <span class="availability">Sold out</span>',
  to: '<span itemprop="price">£12.00</span> · <span class="availability">In stock</span>',
  description: "Moby Diff is back in stock, and its price dropped from £15.00 to £12.00",
};

/** Starts the site on host:port (0 for a free port); rejects with the listen error (EADDRINUSE…). */
export function startSite({ port = DEFAULT_PORT, host = "127.0.0.1" } = {}) {
  let edited = false;
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (path.endsWith("/")) path += "index.html";
    const file = join(SITE, path);
    if (!file.startsWith(SITE)) return res.writeHead(403).end();
    try {
      let body = await readFile(file);
      if (edited && path === EDIT.path) body = Buffer.from(body.toString("utf8").replace(EDIT.from, EDIT.to));
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        url: `http://${host}:${server.address().port}`,
        edit: () => void (edited = true),
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
