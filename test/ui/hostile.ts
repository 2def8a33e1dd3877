import { SqliteMonitorTables, SqliteStore } from "../../src/store/index.js";

/**
 * Payloads that run `window.xssHit(…)` (a binding the test exposes) or set `window.__xss` if any
 * of them executes. Each is stored in every field the UI shows.
 */
export const PAYLOADS = [
  `<script>window.xssHit("script")</script>`,
  `<img src=x onerror="window.xssHit('img')">`,
  `"><svg onload="window.xssHit('svg')">`,
  `'><iframe srcdoc="<script>parent.xssHit('iframe')</script>">`,
  `</title><script>window.__xss=1</script>`,
  `<a href="javascript:window.xssHit('href')">click</a>`,
  `\`\${window.xssHit('template')}\``,
  `<details open ontoggle="window.xssHit('toggle')">`,
  `<style>@import 'http://127.0.0.1:9/x.css';</style>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.xssHit('mxss')">`,
];

/** Markdown a hostile page could convert to: raw HTML, script URLs in links and images, reference links. */
export const HOSTILE_MARKDOWN = [
  "# Title <script>window.xssHit('h1')</script>",
  "",
  PAYLOADS.join("\n\n"),
  "",
  "[click me](javascript:window.xssHit('md-link')) [data](data:text/html,<script>window.xssHit('data')</script>) [vb](vbscript:msgbox(1))",
  "[tab](java\tscript:window.xssHit('tab')) [entity](&#106;avascript:window.xssHit('entity')) [ok](https://example.com/safe)",
  "![img](javascript:window.xssHit('md-img')) ![pic\" onerror=\"window.xssHit('alt')](x.png)",
  "[ref]: javascript:window.xssHit('ref')",
  "see [the ref][ref]",
  "<a href=\"javascript:window.xssHit('raw-a')\">raw</a>",
  "```html",
  "<script>window.xssHit('code')</script>",
  "```",
].join("\n");

/** Stores a run whose every string is hostile: pipeline and step names, URLs, metadata, markdown, links, failures, warnings, extract data, versions. */
export function storeHostileRun(db: string): { runId: number; url: string; stepId: string } {
  const store = new SqliteStore(db);
  try {
    const name = `evil<script>window.xssHit('pipeline')</script>`;
    const run = store.createRun({ pipelineName: name, pipelineFile: `"><img src=x onerror=window.xssHit('file')>.yaml`, pipelineHash: "x", planJson: "{}", engine: "local<svg onload=window.xssHit('engine')>" });
    const stepId = `s"><script>window.xssHit('step')</script>`;
    store.startStep(run.id, stepId, "scrape");
    const url = `https://evil.example/"><script>window.xssHit('url')</script>?q='onmouseover='window.xssHit(1)'`;
    const links = ["javascript:window.xssHit('link')", "data:text/html,<script>window.xssHit(2)</script>", "https://evil.example/ok\"><script>window.xssHit('link2')</script>", "/relative\"onclick=\"window.xssHit(3)"];
    for (const [version, markdown] of [HOSTILE_MARKDOWN, `${HOSTILE_MARKDOWN}\n\nmore <img src=x onerror=window.xssHit('v2')>`].entries()) {
      if (version === 1) {
        store.finishStep(run.id, stepId, "succeeded");
        store.finishRun(run.id, "succeeded");
      }
      const runId = version === 0 ? run.id : store.createRun({ pipelineName: name, pipelineFile: "f.yaml", pipelineHash: "x", planJson: "{}", engine: "local" }).id;
      if (version === 1) store.startStep(runId, stepId, "scrape");
      const changeStatus = version === 0 ? "new" : "changed";
      store.saveDocument(
        {
          runId,
          stepId,
          url,
          fetchedAt: new Date().toISOString(),
          creditsUsed: 1,
          document: {
            markdown,
            html: `<p>${PAYLOADS.join("</p><p>")}</p><form action="https://evil.example/"><input name="q"></form><meta http-equiv="refresh" content="0;url=javascript:window.xssHit('refresh')">`,
            rawHtml: `<html><head><script>window.parent.xssHit('raw')</script></head><body onload="window.parent.xssHit('onload')"></body></html>`,
            links,
            summary: PAYLOADS[1],
            json: { name: PAYLOADS[0], html: PAYLOADS[2] },
            warning: PAYLOADS[3],
            metadata: { title: PAYLOADS[4]!, description: PAYLOADS[2]!, sourceURL: url, url, statusCode: 200, [`og:${PAYLOADS[1]}`]: PAYLOADS[5] },
            changeTracking: {
              previousScrapeAt: version === 0 ? null : `<script>window.xssHit('prev')</script>`,
              changeStatus,
              visibility: "visible",
              ...(version === 1 ? { json: { [PAYLOADS[0]!]: { previous: PAYLOADS[1], current: PAYLOADS[2] } } } : {}),
            },
          },
        },
        { url, tag: version === 0 ? null : null, fingerprint: `f${version}`, normalizerKey: "k", markdown, statusCode: 200 },
      );
      store.saveFailure({ runId, stepId, url: `${url}/failed`, kind: `<b onmouseover=window.xssHit('kind')>`, error: PAYLOADS[0]! });
      store.addWarnings(runId, [{ stepId, url, message: PAYLOADS[1]!, at: new Date().toISOString() }]);
      store.saveStepResult(runId, stepId, JSON.stringify({ success: true, status: "completed", data: { x: PAYLOADS[0] }, tokensUsed: 1, creditsUsed: 1, warning: PAYLOADS[2], error: PAYLOADS[3] }));
      store.recordCredits({ runId, stepId, credits: 1, reason: PAYLOADS[1]! });
      if (version === 1) {
        store.finishStep(runId, stepId, "succeeded");
        store.finishRun(runId, "failed", PAYLOADS[0]);
      }
    }
    return { runId: run.id + 1, url, stepId };
  } finally {
    store.close();
  }
}

/** A monitor whose name, file, cron, errors and notification targets hold the payloads; returns its id. */
export function storeHostileMonitor(db: string, runId: number): number {
  const store = new SqliteStore(db);
  try {
    const tables = new SqliteMonitorTables(store.db);
    const monitor = tables.upsert({ key: "file:hostile", source: "file", name: `evil ${PAYLOADS[0]}`, file: PAYLOADS[2], schedule: { cron: `0 6 * * ${PAYLOADS[1]}`, timezone: PAYLOADS[3]!, jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 } });
    const check = tables.claim(monitor.id, "2026-11-24T05:00:00.000Z", { trigger: "schedule", status: "running" })!;
    tables.setCheckRun(check.id, runId);
    tables.finishCheck(check.id, "failed", { error: PAYLOADS.join(" ") });
    tables.addNotifications(check.id, [{ channel: "webhook", target: `https://x.example/${PAYLOADS[5]}`, event: "monitor.page", sent: false, attempts: 2, error: PAYLOADS.join(" ") }]);
    return monitor.id;
  } finally {
    store.close();
  }
}
