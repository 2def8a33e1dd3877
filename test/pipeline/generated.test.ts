import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as D from "../../src/pipeline/defaults.js";

describe("files generated from schemas/", () => {
  it("src/core/generated/pipeline-file.ts matches the schemas", () => {
    const r = spawnSync(process.execPath, ["scripts/gen-types.mjs", "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("the README reference matches the schemas", () => {
    const r = spawnSync(process.execPath, ["scripts/gen-reference.mjs", "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

type Json = Record<string, unknown>;
const schemas = new Map(readdirSync("schemas").map((f) => [f, JSON.parse(readFileSync(`schemas/${f}`, "utf8")) as Json]));

/** Every `default` annotation in the schemas: [file, JSON path, property name, value]. */
function annotatedDefaults(): Array<{ where: string; name: string; value: unknown; owner: string[] }> {
  const out: Array<{ where: string; name: string; value: unknown; owner: string[] }> = [];
  for (const [file, root] of schemas) {
    const walk = (node: unknown, path: string[]) => {
      if (!node || typeof node !== "object") return;
      const obj = node as Json;
      if (obj.properties && typeof obj.properties === "object") {
        for (const [name, prop] of Object.entries(obj.properties as Json)) {
          const p = prop as Json;
          if (p && typeof p === "object" && "default" in p) out.push({ where: `${file}#/${[...path, "properties", name].join("/")}`, name, value: p.default, owner: path });
        }
      }
      for (const [k, v] of Object.entries(obj)) walk(v, [...path, k]);
    };
    walk(root, []);
  }
  return out;
}

/** The defaults table that applies each schema object, chosen by file and definition. */
function tableFor(where: string): Record<string, unknown> | undefined {
  const [file, pointer = ""] = where.split("#");
  if (file === "parse.schema.json") return pointer.endsWith("/onlyMainContent") || pointer.endsWith("/timeout") ? D.DEFAULT_SCRAPE_OPTIONS : D.DEFAULT_PARSE;
  if (file === "scrape-options.schema.json") {
    if (pointer.includes("/definitions/location/")) return D.DEFAULT_LOCATION;
    if (pointer.includes("/definitions/changeTrackingOptions/")) return D.DEFAULT_CHANGE_TRACKING_OPTIONS;
    return D.DEFAULT_SCRAPE_OPTIONS;
  }
  if (file === "crawl.schema.json") return D.DEFAULT_CRAWL;
  if (file === "map.schema.json") return D.DEFAULT_MAP;
  if (file === "extract.schema.json") return D.DEFAULT_EXTRACT;
  if (file === "agent.schema.json") return D.DEFAULT_AGENT;
  if (file === "search.schema.json") return pointer.includes("/definitions/") ? {} : { ...D.DEFAULT_SEARCH, sources: D.DEFAULT_SEARCH_SOURCES };
  if (file === "session.schema.json") return D.DEFAULT_SESSION;
  if (file === "pipeline.schema.json") {
    if (pointer.includes("/definitions/retry/")) return D.DEFAULT_RETRY;
    if (pointer.includes("/definitions/engine")) return D.DEFAULT_ENGINE_OBJECT;
    if (pointer.includes("/definitions/step/")) return D.DEFAULT_STEP;
    if (pointer.includes("/properties/changeTracking/")) return D.DEFAULT_CHANGE_COMPARISON;
    if (pointer.includes("/properties/notify/")) return D.DEFAULT_NOTIFY;
    if (pointer.includes("/properties/llm/")) return D.DEFAULT_LLM;
    return D.DEFAULT_PIPELINE;
  }
  if (file === "notify.schema.json") {
    if (pointer.endsWith("/events")) return D.DEFAULT_NOTIFY_CHANNEL;
    if (pointer.includes("/rules/")) return D.DEFAULT_NOTIFY_RULES;
    if (pointer.includes("/email/")) return D.DEFAULT_EMAIL_CHANNEL;
    if (pointer.includes("/webhookTarget/")) return D.DEFAULT_WEBHOOK_CHANNEL;
    return D.DEFAULT_NOTIFY;
  }
  if (file === "schedule.schema.json") return D.DEFAULT_SCHEDULE;
  if (file === "interact.schema.json") return D.DEFAULT_INTERACT_TABS;
  if (file === "actions.schema.json" || file === "formats.schema.json") {
    const table = file === "actions.schema.json" ? D.DEFAULT_ACTIONS : D.DEFAULT_FORMATS;
    const definition = /definitions\/([^/]+)/.exec(pointer)?.[1] ?? "";
    const type = Object.keys(table).find((t) => definition.toLowerCase().startsWith(t.toLowerCase()));
    return type ? table[type] : {};
  }
  return undefined;
}

describe("defaults", () => {
  const annotated = annotatedDefaults().filter((d) => !d.where.startsWith("scrape.schema.json") && !d.where.startsWith("url-source"));

  it("finds the annotations", () => {
    expect(annotated.length).toBeGreaterThan(30);
  });

  it.each(annotated.map((d) => [d.where, d] as const))("%s agrees with src/pipeline/defaults.ts", (_where, d) => {
    const table = tableFor(d.where);
    expect(table, `no defaults table for ${d.where}`).toBeDefined();
    expect(table![d.name], `${d.name} is annotated with a default but the table does not apply it`).toEqual(d.value);
  });

  it("every default the tables apply is annotated in the schemas", () => {
    const names = new Set(annotatedDefaults().map((d) => d.name));
    const tables = [D.DEFAULT_SCRAPE_OPTIONS, D.DEFAULT_CRAWL, D.DEFAULT_MAP, D.DEFAULT_EXTRACT, D.DEFAULT_PIPELINE, D.DEFAULT_RETRY, D.DEFAULT_STEP, D.DEFAULT_ENGINE_OBJECT, D.DEFAULT_LOCATION, D.DEFAULT_CHANGE_COMPARISON, D.DEFAULT_NOTIFY, D.DEFAULT_NOTIFY_RULES, D.DEFAULT_NOTIFY_CHANNEL, D.DEFAULT_WEBHOOK_CHANNEL, D.DEFAULT_EMAIL_CHANNEL, D.DEFAULT_SCHEDULE, D.DEFAULT_LLM, D.DEFAULT_SESSION, ...Object.values(D.DEFAULT_ACTIONS), ...Object.values(D.DEFAULT_FORMATS)];
    const missing = tables.flatMap((t) => Object.keys(t)).filter((k) => !names.has(k));
    expect(missing).toEqual([]);
  });
});
