import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../../helpers/site.js";
import { pipeline, readDocuments, runYaml, workdir } from "../../run/helpers.js";

/** A home page, three sections, and two products under each section: none in a sitemap. */
const site = new FixtureSite();
const list = (paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join(" ");

beforeAll(async () => {
  site.page("/", htmlPage("Home", list(["/s1", "/s2", "/s3"])));
  for (let s = 1; s <= 3; s++) {
    site.page(`/s${s}`, htmlPage(`Section ${s}`, list([`/s${s}/a`, `/s${s}/b`])));
    site.page(`/s${s}/a`, htmlPage(`Item ${s}a`, "")).page(`/s${s}/b`, htmlPage(`Item ${s}b`, ""));
  }
  // A section whose pages answer slowly, each linking ten more.
  site.page("/slow/", htmlPage("Slow", list(Array.from({ length: 10 }, (_, i) => `/slow/${i}`))));
  for (let i = 0; i < 10; i++) {
    site.route(`/slow/${i}`, (_req, res) => void setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage(`Slow ${i}`, list([`/slow/${i}/x`]))), 2500));
  }
  await site.start();
});
afterAll(() => site.stop());

const map = (body: string) => `  - id: urls\n    map: { ${body} }\n`;

describe("map steps", () => {
  it("store every page of the site the walk reached, for one credit", async () => {
    const { result, db, events } = await runYaml(pipeline(map(`url: "${site.url}/"`)));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    expect(result.credits).toBe(1);
    const [doc] = readDocuments(db, result.runId, "urls");
    const paths = (doc!.document.links ?? []).map((u) => new URL(u).pathname).sort();
    expect(paths).toEqual(["/", "/s1", "/s1/a", "/s1/b", "/s2", "/s2/a", "/s2/b", "/s3", "/s3/a", "/s3/b"]);
    expect(events.some((e) => e.type === "step-warning")).toBe(false);
  });

  it("succeed with what was found when the map's timeout runs out, and say so as a step warning", async () => {
    const { result, db, events } = await runYaml(pipeline(map(`url: "${site.url}/slow/", timeout: 1000`)));
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.status).toBe("succeeded");
    const [doc] = readDocuments(db, result.runId, "urls");
    const found = (doc!.document.links ?? []).map((u) => new URL(u).pathname);
    expect(found).toEqual(expect.arrayContaining(["/slow/", ...Array.from({ length: 10 }, (_, i) => `/slow/${i}`)]));
    expect(found.some((p) => p.endsWith("/x"))).toBe(false); // behind the slow pages: never reached
    expect(doc!.document.warning).toMatch(/timeout of 1000 ms/);
    expect(events).toContainEqual({ type: "step-warning", stepId: "urls", message: expect.stringMatching(/stopped at its timeout of 1000 ms with \d+ URL/) });
  });
});

describe("scrapeline run with a map of an unreachable site", () => {
  function runCli(url: string, extra: string[]): { code: number | null; out: string } {
    const dir = workdir();
    const file = join(dir, "p.yaml");
    writeFileSync(file, pipeline(map(`url: "${url}"`)));
    const r = spawnSync(process.execPath, ["dist/cli/main.js", "run", file, "--db", join(dir, "t.db"), ...extra], { encoding: "utf8", timeout: 60_000 });
    return { code: r.status, out: r.stdout + r.stderr };
  }

  it("fails the step with the refused connection, and exits non-zero", async () => {
    const closed = new FixtureSite();
    await closed.start();
    const url = `${closed.url}/`;
    await closed.stop();
    const r = runCli(url, ["--allow-private-network"]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/refused|ECONNREFUSED/i);
    expect(r.out).not.toMatch(/succeeded/);
  });

  it("fails the step with the network policy that refused the address", () => {
    const r = runCli("http://127.0.0.1:9/", []);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/private|not public|allow-private-network|blocked/i);
  });
});
