import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite } from "../helpers/site.js";
import { finish, pipeline, readDocuments, workdir } from "./helpers.js";

const site = new FixtureSite();

beforeAll(async () => {
  // The prices exist only once the page's script has run.
  site.page("/product", `<!doctype html><html><head><title>Kettle</title></head><body><main id="m"></main><script>document.getElementById("m").innerHTML = '<h1>Kettle</h1><p class="price">30 EUR</p><p class="sale">25 EUR</p>';</script></body></html>`);
  await site.start();
});
afterAll(() => site.stop());

function yaml(selector: string): string {
  return pipeline(`  - id: product\n    scrape: { url: "${site.url}/product", formats: [markdown, { type: json, schema: { type: object, properties: { price: { type: number, x-selector: "${selector}" } } } }] }\n`, "engine: { kind: local, browser: always }\n");
}

async function cli(dir: string, text: string, env: Record<string, string | undefined>, ...args: string[]) {
  const file = join(dir, "shop.yaml");
  writeFileSync(file, text);
  return finish(spawn(process.execPath, ["dist/cli/main.js", "run", file, "--db", join(dir, "shop.db"), "--allow-private-network", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } as NodeJS.ProcessEnv }));
}

describe("run --from-run on pages the browser rendered", () => {
  it("converts the stored rendered HTML with no browser and no request", async () => {
    const dir = workdir();
    const db = join(dir, "shop.db");
    const live = await cli(dir, yaml(".price"), {});
    expect(live.code, live.err).toBe(0);
    expect(readDocuments(db, 1, "product")[0]!.document.json).toEqual({ price: 30 });
    const hits = site.hits.get("/product");

    // No browser to be had: a run that started one would fail.
    const noBrowser = { SCRAPELINE_BROWSER_ENDPOINT: "", SCRAPELINE_CHROMIUM: join(dir, "no-chromium") };
    const changed = await cli(dir, yaml(".sale"), noBrowser, "--from-run", "latest");
    expect(changed.code, changed.err).toBe(0);
    expect(site.hits.get("/product")).toBe(hits);
    const page = readDocuments(db, 2, "product")[0]!.document;
    expect(page.json).toEqual({ price: 25 });
    expect(page.markdown).toContain("Kettle");

    // A run made from stored pages keeps them in turn.
    const again = await cli(dir, yaml(".price"), noBrowser, "--from-run", "2");
    expect(again.code, again.err).toBe(0);
    expect(readDocuments(db, 3, "product")[0]!.document.json).toEqual({ price: 30 });

    // The same run without --from-run needs the browser it cannot have.
    const live2 = await cli(dir, yaml(".sale"), noBrowser);
    expect(live2.code).toBe(1);
  });
});
