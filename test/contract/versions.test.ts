import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "../run/helpers.js";
import { startServe, type Serve } from "../server/helpers.js";

// The same pipelines on the local engine and on the remote engine against scrapeline serve: v1
// defaults, failed actions and failed extracts come out the same on both.
const site = new FixtureSite();
let serve: Serve;
let version = 1;

beforeAll(async () => {
  site.route("/changing", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Changing", `<p>Version ${version}</p>`)));
  site.page("/form", htmlPage("Form", '<button id="go">Go</button>'));
  site.route("/broken", (req) => req.socket.destroy());
  await site.start();
  serve = await startServe({ contract: { planTokens: 1_000_000 } });
});
afterAll(async () => {
  await serve?.stop();
  await site?.stop();
});

const REMOTE = () => `engine: { kind: firecrawl, baseUrl: "${serve.server.url}" }\n`;
const remoteEnv = () => ({ FIRECRAWL_API_KEY: serve.keys.contract! });

async function side(steps: string, remote: boolean, db?: string) {
  const run = await runYaml(pipeline(steps, remote ? REMOTE() : ""), { env: remote ? remoteEnv() : {}, ...(db ? { db } : {}) });
  if (!run.result.ok) throw new Error("invalid pipeline");
  return { db: run.db, runId: run.result.runId, status: run.result.status };
}

function failures(db: string, runId: number) {
  const store = new SqliteStore(db);
  try {
    return store.failures(runId).map((f) => ({ url: f.url, error: f.error }));
  } finally {
    store.close();
  }
}

describe("contract: versions, actions and extract failures", () => {
  it("a step in v1 form has v1's maxAge 0 on both engines: a changed page is read again", async () => {
    const steps = `  - id: page\n    scrape: { url: "${site.url}/changing", formats: [markdown], parsePDF: true }\n`;
    version = 1;
    const local = await side(steps, false);
    const remote = await side(steps, true);
    version = 2;
    const local2 = await side(steps, false, local.db);
    const remote2 = await side(steps, true, remote.db);
    const markdown = (s: { db: string; runId: number }) => readDocuments(s.db, s.runId, "page")[0]!.document.markdown;
    expect(markdown(local2)).toContain("Version 2");
    expect(markdown(remote2)).toContain("Version 2");
  });

  it("a click whose selector matches nothing fails the page with the same message on both engines", async () => {
    const steps = `  - id: act\n    scrape: { url: "${site.url}/form", timeout: 30000, actions: [{ type: click, selector: "#go" }, { type: click, selector: "#x" }, { type: scrape }] }\n    retry: { attempts: 1 }\n    continueOnError: true\n`;
    const local = await side(steps, false);
    const remote = await side(steps, true);
    const l = failures(local.db, local.runId);
    expect(l).toHaveLength(1);
    expect(l[0]!.error).toMatch(/^action 2 of 3 \(click "#x"\) failed: /);
    const r = failures(remote.db, remote.runId);
    expect(r).toHaveLength(1);
    expect(r[0]!.error).toContain('action 2 of 3 (click "#x") failed: ');
  });

  it("an extract whose pages all fail fails on both engines", async () => {
    const steps = `  - id: x\n    extract: { urls: ["${site.url}/broken"], schema: { type: object, properties: { title: { type: string } } }, scrapeOptions: { timeout: 2000 } }\n    retry: { attempts: 1 }\n`;
    const local = await side(steps, false);
    const remote = await side(steps, true);
    expect(local.status).toBe("failed");
    expect(remote.status).toBe("failed");
  });
});
