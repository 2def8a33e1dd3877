#!/usr/bin/env node
// Generates src/core/generated/pipeline-file.ts from schemas/ (the schemas are the source of truth).
// `node scripts/gen-types.mjs --check` exits 1 when the checked-in file is out of date.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const root = new URL("../", import.meta.url);
const schemasDir = new URL("schemas/", root);
const target = new URL("src/core/generated/pipeline-file.ts", root);

/** The exported TypeScript name of each schema file's root. */
const NAMES = {
  "pipeline.schema.json": "PipelineFile",
  "scrape-options.schema.json": "ScrapeOptionsFile",
  "formats.schema.json": "FormatItem",
  "actions.schema.json": "Action",
  "threat-protection.schema.json": "ThreatProtectionOverride",
  "url-source.schema.json": "UrlSource",
  "scrape.schema.json": "ScrapeBody",
  "crawl.schema.json": "CrawlBody",
  "map.schema.json": "MapBody",
  "extract.schema.json": "ExtractBody",
  "parse.schema.json": "ParseBody",
  "search.schema.json": "SearchBody",
  "session.schema.json": "Session",
  "interact.schema.json": "InteractBody",
  "schedule.schema.json": "ScheduleFile",
  "notify.schema.json": "NotifyFile",
  "agent.schema.json": "AgentBody",
  "expect.schema.json": "StepExpectations",
  "run-expect.schema.json": "RunExpectations",
};

export async function generate() {
  const files = new Map();
  for (const name of readdirSync(schemasDir).filter((f) => f.endsWith(".schema.json"))) {
    const schema = JSON.parse(readFileSync(new URL(name, schemasDir), "utf8"));
    if (!NAMES[name]) throw new Error(`schemas/${name} has no type name in scripts/gen-types.mjs`);
    schema.title = NAMES[name];
    files.set(name, schema);
  }
  const banner = "/* Generated from schemas/ by scripts/gen-types.mjs (npm run gen:types). Do not edit. */";
  const ts = await compile(files.get("pipeline.schema.json"), "PipelineFile", {
    bannerComment: banner,
    cwd: fileURLToPath(schemasDir),
    declareExternallyReferenced: true,
    additionalProperties: false,
    unknownAny: true,
    strictIndexSignatures: true,
    format: false,
    $refOptions: {
      resolve: {
        file: {
          order: 1,
          canRead: true,
          read: (file) => {
            const name = file.url.split("/").pop();
            if (!files.has(name)) throw new Error(`unknown schema file ${file.url}`);
            return JSON.stringify(files.get(name));
          },
        },
      },
    },
  });
  return ts.replace(/\n{3,}/g, "\n\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ts = await generate();
  if (process.argv.includes("--check")) {
    const current = readFileSync(target, "utf8");
    if (current !== ts) {
      console.error("src/core/generated/pipeline-file.ts is out of date: run npm run gen:types");
      process.exit(1);
    }
  } else {
    writeFileSync(target, ts);
    console.log(`wrote ${fileURLToPath(target)}`);
  }
}
