import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPipelineFile } from "../../src/app/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";

/** What each path of the fixture site answers now; runs change it between them. */
export type Pages = Map<string, { body: string; status?: number; title?: string }>;

/** A loopback site whose pages a test sets, and real runs of a pipeline against it into one database. */
export class UiFixture {
  readonly site = new FixtureSite();
  readonly pages: Pages = new Map();
  readonly dir = mkdtempSync(join(tmpdir(), "scrapeline-ui-"));
  readonly db = join(this.dir, "ui.db");
  readonly runs: number[] = [];

  async start(paths: string[]): Promise<this> {
    for (const path of paths) {
      this.site.route(path, (_req, res) => {
        const page = this.pages.get(path);
        if (!page) return void res.writeHead(404, { "content-type": "text/html" }).end(htmlPage("Not found", "<p>missing</p>"));
        res.writeHead(page.status ?? 200, { "content-type": "text/html; charset=utf-8" }).end(htmlPage(page.title ?? path.slice(1), page.body));
      });
    }
    await this.site.start();
    return this;
  }

  /** Runs a pipeline (YAML with `{site}` for the site's URL) into the database; returns the run's id. */
  async run(name: string, yaml: string): Promise<number> {
    const file = join(this.dir, `${name}.yaml`);
    writeFileSync(file, yaml.replaceAll("{site}", this.site.url));
    const result = await runPipelineFile(file, { db: this.db, allowPrivateNetwork: true });
    if (!("runId" in result) || result.runId === undefined) throw new Error(`the run did not start: ${JSON.stringify(result)}`);
    this.runs.push(result.runId);
    return result.runId;
  }

  stop(): Promise<void> {
    return this.site.stop();
  }
}

export const TRACKED = "{ type: changeTracking, modes: [git-diff] }";

/** The monitored pages: the pricing page changes, the team page disappears, the about page stays. */
export const MONITOR_YAML = `version: 1
name: monitor
retry: { attempts: 1, initialDelayMs: 10, maxDelayMs: 20 }
steps:
  - id: pages
    scrape: { urls: ["{site}/pricing", "{site}/about", "{site}/team", "{site}/broken"], formats: [markdown, links, ${TRACKED}] }
`;

/** Long enough that the unchanged middle of the pricing page is folded in its diff. */
export function pricing(starter: string): string {
  const filler = Array.from({ length: 12 }, (_, i) => `<p>Feature line ${i + 1} is included.</p>`).join("");
  return `<p>Starter: ${starter}</p>${filler}<p>Pro: 30 EUR</p><p>Read <a href="/about">About us</a> before you buy, and <a href="https://example.com/terms">the terms</a>.</p>`;
}

/** Two runs of the monitor: the second sees the pricing page changed and the team page gone; /broken fails both times. */
export async function monitoredDatabase(fixture: UiFixture): Promise<{ first: number; second: number }> {
  fixture.pages.set("/pricing", { body: pricing("10 EUR") });
  fixture.pages.set("/about", { body: "<p>We make <strong>things</strong>.</p>" });
  fixture.pages.set("/team", { body: "<p>Alice and Bob</p>" });
  fixture.pages.set("/broken", { body: "<p>down</p>", status: 500 });
  const first = await fixture.run("monitor", MONITOR_YAML);
  fixture.pages.set("/pricing", { body: pricing("12 EUR") });
  fixture.pages.delete("/team");
  const second = await fixture.run("monitor", MONITOR_YAML);
  return { first, second };
}
