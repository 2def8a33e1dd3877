import { describe, it, expect } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { Ajv, type AnySchemaObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const SCHEMAS_DIR = new URL("../schemas/", import.meta.url);
const BASE = "https://scrapeline.local/schemas/";
const PIPELINE = "pipeline.schema.json";

type Json = Record<string, unknown>;
type Schema = Record<string, unknown>;

const files = new Map<string, Schema>(
  readdirSync(SCHEMAS_DIR)
    .filter((f) => f.endsWith(".schema.json"))
    .sort()
    .map((name) => [name, JSON.parse(readFileSync(new URL(name, SCHEMAS_DIR), "utf8")) as Schema]),
);

function compileSchemas(): { ajv: Ajv; validate: ValidateFunction } {
  const ajv = new Ajv({ allErrors: true, strict: true, discriminator: true, verbose: true });
  // Recent ajv releases already list `deprecated` in the metadata vocabulary; registering it twice throws.
  if (!ajv.RULES.keywords.deprecated) ajv.addVocabulary(["deprecated"]);
  addFormats(ajv);
  for (const [name, json] of files) ajv.addSchema(json as AnySchemaObject, BASE + name);
  const validate = ajv.getSchema(BASE + PIPELINE);
  if (!validate) throw new Error(`${PIPELINE} did not compile`);
  return { ajv, validate };
}

const { ajv, validate } = compileSchemas();

interface Found {
  keyword: string;
  instancePath: string;
  message?: string;
}

function errorsOf(doc: unknown): Found[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(({ keyword, instancePath, message }) => ({ keyword, instancePath, message }));
}

// ---------------------------------------------------------------------------------------------
// Document builders. Each target knows where its object sits in a pipeline file and builds a
// minimal valid file around the given fields (undefined fields are dropped, to test `required`).

const SITE = "https://example.com/";

interface Target {
  path: string;
  doc: (fields: Json) => Json;
}

const clean = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;
const root = (fields: Json = {}): Json =>
  clean({ version: 1, name: "test", steps: [{ id: "s", scrape: { url: SITE } }], ...fields });
const step = (fields: Json): Json => root({ steps: [{ id: "s", ...fields }] });
/** Two steps: `site` (a map) and `s`, whose body may take its URLs from `site`. */
const twoSteps = (second: Json): Json => root({ steps: [{ id: "site", map: { url: SITE } }, { id: "s", ...second }] });

const T = {
  pipeline: { path: "", doc: (f: Json) => root(f) },
  engine: { path: "/engine", doc: (f: Json) => root({ engine: { kind: "firecrawl", ...f } }) },
  retry: { path: "/retry", doc: (f: Json) => root({ retry: f }) },
  budget: { path: "/budget", doc: (f: Json) => root({ budget: f }) },
  defaults: { path: "/defaults", doc: (f: Json) => root({ defaults: f }) },
  step: { path: "/steps/0", doc: (f: Json) => step({ scrape: { url: SITE }, ...f }) },
  stepRetry: { path: "/steps/0/retry", doc: (f: Json) => step({ scrape: { url: SITE }, retry: f }) },
  scrape: { path: "/steps/0/scrape", doc: (f: Json) => step({ scrape: { url: SITE, ...f } }) },
  defaultOptions: { path: "/defaults/scrapeOptions", doc: (f: Json) => root({ defaults: { scrapeOptions: f } }) },
  crawlOptions: { path: "/steps/0/crawl/scrapeOptions", doc: (f: Json) => step({ crawl: { url: SITE, scrapeOptions: f } }) },
  extractOptions: { path: "/steps/0/extract/scrapeOptions", doc: (f: Json) => step({ extract: { urls: [SITE], scrapeOptions: f } }) },
  location: { path: "/steps/0/scrape/location", doc: (f: Json) => step({ scrape: { url: SITE, location: f } }) },
  trackingOptions: {
    path: "/steps/0/scrape/changeTrackingOptions",
    doc: (f: Json) => step({ scrape: { url: SITE, formats: ["markdown", "changeTracking"], changeTrackingOptions: f } }),
  },
  jsonOptions: { path: "/steps/0/scrape/jsonOptions", doc: (f: Json) => step({ scrape: { url: SITE, formats: ["json"], jsonOptions: f } }) },
  parser: { path: "/steps/0/scrape/parsers/0", doc: (f: Json) => step({ scrape: { url: SITE, parsers: [{ type: "pdf", ...f }] } }) },
  threat: { path: "/steps/0/scrape/threatProtection", doc: (f: Json) => step({ scrape: { url: SITE, threatProtection: f } }) },
  crawl: { path: "/steps/0/crawl", doc: (f: Json) => step({ crawl: { url: SITE, ...f } }) },
  map: { path: "/steps/0/map", doc: (f: Json) => step({ map: { url: SITE, ...f } }) },
  extract: { path: "/steps/0/extract", doc: (f: Json) => step({ extract: { urls: [SITE], ...f } }) },
  urlSource: { path: "/steps/1/scrape/urls", doc: (f: Json) => twoSteps({ scrape: { urls: { from: "site", ...f } } }) },
} satisfies Record<string, Target>;

const ACTION = "/steps/0/scrape/actions/0";
const action = (type: string, base: Json = {}): Target => ({
  path: ACTION,
  doc: (f: Json) => step({ scrape: { url: SITE, actions: [{ type, ...base, ...f }] } }),
});
const FORMAT = "/steps/0/scrape/formats/0";
const format = (type: string, base: Json = {}): Target => ({
  path: FORMAT,
  doc: (f: Json) => step({ scrape: { url: SITE, formats: [{ type, ...base, ...f }, "markdown"] } }),
});
const viewport = (owner: Target): Target => ({ path: `${owner.path}/viewport`, doc: (f: Json) => owner.doc({ viewport: { width: 800, height: 600, ...f } }) });

// ---------------------------------------------------------------------------------------------
// Rules: each has valid documents and invalid ones with the ajv error they must produce.

type Bad = [doc: Json, keyword: string, instancePath: string];
interface Rule {
  name: string;
  ok: Json[];
  bad: Bad[];
}

/** A field of a target: each ok value is accepted; each bad value fails with keyword at `path/key` + suffix. */
function field(target: Target, key: string, ok: unknown[], bad: Array<[value: unknown, keyword: string, suffix?: string]>): Rule {
  return {
    name: `${target.path}/${key}`,
    ok: ok.map((value) => target.doc({ [key]: value })),
    bad: bad.map(([value, keyword, suffix = ""]) => [target.doc({ [key]: value }), keyword, `${target.path}/${key}${suffix}`]),
  };
}

/** A required field: present is accepted, absent fails with `required` at the target itself. */
function required(target: Target, key: string, value: unknown): Rule {
  return { name: `${target.path || "/"} requires ${key}`, ok: [target.doc({ [key]: value })], bad: [[target.doc({ [key]: undefined }), "required", target.path]] };
}

/** A closed object: the base document is accepted, an unknown key fails with additionalProperties. */
function closed(target: Target, unknownKey = "unknownKey"): Rule {
  return { name: `${target.path || "/"} is closed`, ok: [target.doc({})], bad: [[target.doc({ [unknownKey]: true }), "additionalProperties", target.path]] };
}

const bool = (target: Target, key: string): Rule => field(target, key, [true, false], [["yes", "type"]]);
const long = (n: number): string => "x".repeat(n);
const many = <V>(n: number, make: (i: number) => V): V[] => Array.from({ length: n }, (_, i) => make(i));

function check(rules: Rule[]): void {
  for (const rule of rules) {
    describe(rule.name, () => {
      it.each(rule.ok.map((doc, i) => ({ i: String(i), doc })))("accepts valid document $i", ({ doc }) => {
        expect(errorsOf(doc)).toEqual([]);
      });
      it.each(rule.bad.map(([doc, keyword, instancePath]) => ({ doc, keyword, instancePath })))(
        "rejects with $keyword at $instancePath",
        ({ doc, keyword, instancePath }) => {
          expect(errorsOf(doc)).toContainEqual(expect.objectContaining({ keyword, instancePath }));
        },
      );
    });
  }
}

// ---------------------------------------------------------------------------------------------

describe("bundled schemas", () => {
  it("compile with ajv in strict mode, discriminator on", () => {
    expect(() => compileSchemas()).not.toThrow();
  });

  it("are the expected files, draft-07, without $id, with a title and a description", () => {
    expect([...files.keys()]).toEqual([
      "actions.schema.json",
      "agent.schema.json",
      "crawl.schema.json",
      "expect.schema.json",
      "extract.schema.json",
      "formats.schema.json",
      "interact.schema.json",
      "map.schema.json",
      "notify.schema.json",
      "parse.schema.json",
      "pipeline.schema.json",
      "run-expect.schema.json",
      "schedule.schema.json",
      "scrape-options.schema.json",
      "scrape.schema.json",
      "search.schema.json",
      "session.schema.json",
      "threat-protection.schema.json",
      "url-source.schema.json",
    ]);
    for (const [name, schema] of files) {
      expect(schema.$schema, name).toBe("http://json-schema.org/draft-07/schema#");
      expect(typeof schema.title, name).toBe("string");
      expect(typeof schema.description, name).toBe("string");
      walk(name, (node, pointer) => expect(node.$id, `${name}#${pointer}`).toBeUndefined());
    }
  });

  it("are 2-space indented JSON", () => {
    for (const name of files.keys()) {
      const text = readFileSync(new URL(name, SCHEMAS_DIR), "utf8");
      expect(text.endsWith("}\n"), name).toBe(true);
      for (const line of text.split("\n")) expect((/^ */.exec(line)?.[0].length ?? 0) % 2, `${name}: ${line}`).toBe(0);
    }
  });

  it("accept the example pipeline of the design", () => {
    const example = {
      version: 1,
      name: "competitor-watch",
      engine: "local",
      concurrency: 8,
      perHostConcurrency: 2,
      retry: { attempts: 3, initialDelayMs: 500, maxDelayMs: 30000 },
      budget: { maxCredits: 500 },
      defaults: { scrapeOptions: { onlyMainContent: true, timeout: 30000 } },
      steps: [
        { id: "pricing", scrape: { url: "https://example.com/pricing", formats: ["markdown", { type: "changeTracking", modes: ["git-diff"], tag: "nightly" }] } },
        { id: "site", map: { url: "https://example.com", limit: 200 } },
        { id: "posts", scrape: { urls: { from: "site", include: ["/blog/**"], limit: 20 }, formats: ["markdown", "links"] } },
        {
          id: "products",
          extract: {
            urls: ["https://example.com/products/*"],
            prompt: "Name and price of every product",
            schema: { type: "object", properties: { products: { type: "array", items: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } } } } },
            showSources: true,
          },
        },
        { id: "docs", crawl: { url: "https://docs.example.com", limit: 100, maxDiscoveryDepth: 3, sitemap: "include", scrapeOptions: { formats: ["markdown"] } } },
      ],
    };
    expect(errorsOf(example)).toEqual([]);
    expect(errorsOf({ ...example, engine: { kind: "firecrawl", baseUrl: "https://api.firecrawl.dev", apiKeyEnv: "FIRECRAWL_API_KEY" } })).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Structure of the schema files.

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Visits every subschema of a file (not enum/const/default values) with its JSON pointer. */
function walk(name: string, visit: (node: Schema, pointer: string) => void): void {
  const go = (node: unknown, pointer: string): void => {
    if (!isSchema(node)) return;
    visit(node, pointer);
    for (const key of ["properties", "definitions", "patternProperties", "dependencies"]) {
      const map = node[key];
      if (isSchema(map)) for (const [k, v] of Object.entries(map)) go(v, `${pointer}/${key}/${k}`);
    }
    for (const key of ["items", "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames"]) go(node[key], `${pointer}/${key}`);
    for (const key of ["oneOf", "anyOf", "allOf"]) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((v, i) => go(v, `${pointer}/${key}/${i}`));
    }
  };
  go(files.get(name), "");
}

function at(name: string, pointer: string): Schema | undefined {
  let node: unknown = files.get(name);
  for (const part of pointer.split("/").filter(Boolean)) node = isSchema(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  return isSchema(node) ? node : undefined;
}

/** Follows `$ref`s between the files to the schema they point at. */
function deref(name: string, schema: Schema): { name: string; schema: Schema } {
  const ref = schema.$ref;
  if (typeof ref !== "string") return { name, schema };
  const [file = "", pointer = ""] = ref.split("#");
  const target = file || name;
  const resolved = at(target, pointer);
  if (!resolved) throw new Error(`${name}: $ref ${ref} does not resolve`);
  return deref(target, resolved);
}

/** Objects the user writes freely: a JSON Schema for extraction (compiled separately by the loader), a webhook's metadata sent back as it is. */
const USER_SCHEMA = /\/properties\/(schema|metadata)$/;

describe("schema structure", () => {
  it("scrape.schema.json lists exactly the ScrapeOptions properties plus url and urls", () => {
    const scrape = files.get("scrape.schema.json")?.properties as Record<string, Schema>;
    const options = files.get("scrape-options.schema.json")?.properties as Record<string, Schema>;
    expect(Object.keys(scrape).sort()).toEqual([...Object.keys(options), "url", "urls"].sort());
    for (const [key, own] of Object.entries(options)) {
      // A ScrapeOptions property that is itself a bare reference to another file is referenced
      // directly: ajv gives a whole-file $ref reached through a JSON pointer the wrong base URI.
      const bareFileRef = typeof own.$ref === "string" && !own.$ref.startsWith("#") && Object.keys(own).length === 1;
      expect(scrape[key], key).toEqual({ $ref: bareFileRef ? own.$ref : `scrape-options.schema.json#/properties/${key}` });
    }
  });

  it("every object schema in every file says additionalProperties", () => {
    let objects = 0;
    for (const name of files.keys()) {
      walk(name, (node, pointer) => {
        const where = `${name}#${pointer}`;
        if (node.type === "object") {
          objects += 1;
          if (node.discriminator !== undefined) {
            // The root of a discriminated union: its branches are closed objects.
            expect(Array.isArray(node.oneOf), where).toBe(true);
            expect(node.properties, where).toBeUndefined();
          } else if (USER_SCHEMA.test(pointer)) {
            expect(node.properties, where).toBeUndefined();
          } else if (pointer.endsWith("/properties/headers")) {
            expect(node.additionalProperties, where).toEqual({ type: "string" });
          } else if (pointer === "/properties/sessions") {
            // A map of named logins: every value is a closed session object.
            expect(node.additionalProperties, where).toEqual({ $ref: "session.schema.json" });
          } else if (name === "expect.schema.json" && pointer === "/properties/fields") {
            // A map of field paths (checked when the file loads): every value is a closed field rule.
            expect(node.additionalProperties, where).toEqual({ $ref: "#/definitions/field" });
          } else {
            expect(node.additionalProperties, where).toBe(false);
          }
        } else if (node.properties !== undefined) {
          // Only the "which keys must be present" branches of oneOf/anyOf: no type, properties all `true`.
          expect(pointer, where).toMatch(/\/(oneOf|anyOf)\/\d+$/);
          expect(Object.values(node.properties as Json).every((v) => v === true), where).toBe(true);
          expect(Object.keys(node.properties as Json).sort(), where).toEqual([...(node.required as string[])].sort());
        }
      });
    }
    expect(objects).toBeGreaterThan(30);
  });

  it("every property has a description, directly or through its $ref", () => {
    for (const name of files.keys()) {
      walk(name, (node, pointer) => {
        if (node.type === undefined && node.properties !== undefined) return; // required-only branches
        for (const [key, raw] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
          const description = raw.description ?? deref(name, raw).schema.description;
          expect(typeof description, `${name}#${pointer}/properties/${key}`).toBe("string");
        }
      });
    }
  });

  it("every default is valid against its own schema", () => {
    let defaults = 0;
    for (const name of files.keys()) {
      walk(name, (node, pointer) => {
        if (!("default" in node)) return;
        defaults += 1;
        const ok = ajv.validate({ $ref: `${BASE}${name}#${pointer}` }, node.default);
        expect(ok, `${name}#${pointer}: ${ajv.errorsText()}`).toBe(true);
      });
    }
    expect(defaults).toBeGreaterThan(40);
  });

  it("uses the v2 defaults where v1 and v2 differ", () => {
    const options = files.get("scrape-options.schema.json")?.properties as Record<string, Schema>;
    expect(options.maxAge?.default).toBe(172800000);
    expect(options.skipTlsVerification?.default).toBe(true);
    expect(options.removeBase64Images?.default).toBe(true);
    expect(options.blockAds?.default).toBe(true);
    expect(options.formats?.default).toEqual(["markdown"]);
    expect(options.parsers?.default).toEqual(["pdf"]);
  });

  it("marks exactly the v1 fields deprecated, each naming its replacement", () => {
    const deprecated: string[] = [];
    for (const name of files.keys()) {
      walk(name, (node, pointer) => {
        if (node.deprecated === undefined) return;
        expect(node.deprecated).toBe(true);
        expect(node.description, `${name}#${pointer}`).toMatch(/^v1: use /);
        expect(node.default, `${name}#${pointer}`).toBeUndefined();
        deprecated.push(`${name}#${pointer}`);
      });
    }
    expect(deprecated.sort()).toEqual([
      "crawl.schema.json#/properties/allowBackwardCrawling",
      "crawl.schema.json#/properties/allowBackwardLinks",
      "crawl.schema.json#/properties/ignoreSitemap",
      "crawl.schema.json#/properties/maxDepth",
      "scrape-options.schema.json#/definitions/changeTrackingOptions",
      "scrape-options.schema.json#/definitions/jsonOptions",
      "scrape-options.schema.json#/properties/parsePDF",
    ]);
  });

  it("discriminated unions: every branch is a closed object requiring a type tag", () => {
    const tags = new Map<string, string[]>();
    for (const name of files.keys()) {
      walk(name, (node, pointer) => {
        if (node.discriminator === undefined) return;
        expect(node.discriminator).toEqual({ propertyName: "type" });
        const values: string[] = [];
        for (const raw of node.oneOf as Schema[]) {
          const { schema: branch } = deref(name, raw);
          expect(branch.type).toBe("object");
          expect(branch.additionalProperties).toBe(false);
          expect(branch.required).toContain("type");
          const tag = (branch.properties as Record<string, Schema>).type;
          if (tag?.const !== undefined) values.push(String(tag.const));
          else values.push(...((tag?.enum as string[] | undefined) ?? []));
        }
        tags.set(`${name}#${pointer}`, values);
      });
    }
    expect(Object.fromEntries(tags)).toEqual({
      "actions.schema.json#": ["wait", "screenshot", "click", "write", "press", "scroll", "scrape", "executeJavascript", "pdf"],
      "formats.schema.json#/definitions/formatObject": ["markdown", "html", "rawHtml", "links", "summary", "images", "json", "screenshot", "changeTracking"],
    });
  });

  it("step ids are spelled the same wherever a step is named", () => {
    const stepId = at(PIPELINE, "/definitions/stepId");
    const from = at("url-source.schema.json", "/properties/from");
    expect(from?.pattern).toBe(stepId?.pattern);
    expect(from?.maxLength).toBe(stepId?.maxLength);
  });
});

// ---------------------------------------------------------------------------------------------

describe("pipeline.schema.json", () => {
  const name100 = `a${long(99)}`;
  check([
    required(T.pipeline, "version", 1),
    field(T.pipeline, "version", [1], [[2, "const"], ["1", "type"]]),
    required(T.pipeline, "name", "test"),
    field(T.pipeline, "name", ["competitor-watch", "a.b_c-1", "9lives", name100], [
      ["-leading", "pattern"],
      ["has space", "pattern"],
      [`${name100}x`, "maxLength"],
      [5, "type"],
    ]),
    field(T.pipeline, "description", ["Nightly prices"], [[5, "type"]]),
    field(T.pipeline, "engine", ["local", "firecrawl", { kind: "local" }], [
      ["remote", "enum"],
      ["remote", "oneOf"],
      [5, "oneOf"],
    ]),
    required(T.engine, "kind", "firecrawl"),
    field(T.engine, "kind", ["local", "firecrawl"], [["remote", "enum"]]),
    field(T.engine, "baseUrl", ["https://api.firecrawl.dev", "http://127.0.0.1:3002"], [["api.firecrawl.dev", "format"]]),
    field(T.engine, "apiKeyEnv", ["FIRECRAWL_API_KEY", "_KEY2"], [["firecrawl-key", "pattern"], ["2KEY", "pattern"]]),
    field(T.engine, "browser", ["auto", "always", "never"], [["sometimes", "enum"]]),
    closed(T.engine),
    field(T.pipeline, "concurrency", [1, 1000], [[0, "minimum"], [1001, "maximum"], [2.5, "type"]]),
    field(T.pipeline, "perHostConcurrency", [1, 100], [[0, "minimum"], [101, "maximum"], [1.5, "type"]]),
    field(T.retry, "attempts", [1, 20], [[0, "minimum"], [21, "maximum"], [1.5, "type"]]),
    field(T.retry, "initialDelayMs", [0, 500], [[-1, "minimum"], [0.5, "type"]]),
    field(T.retry, "maxDelayMs", [0, 30000], [[-1, "minimum"], ["30s", "type"]]),
    closed(T.retry, "jitter"),
    field(T.budget, "maxCredits", [0, 500], [[-1, "minimum"], [1.5, "type"]]),
    closed(T.budget, "maxTokens"),
    bool(T.pipeline, "allowPrivateNetwork"),
    field(T.defaults, "scrapeOptions", [{}, { timeout: 60000, formats: ["html"] }], [[{ timeout: 10 }, "minimum", "/timeout"], ["fast", "type"]]),
    closed(T.defaults, "retry"),
    required(T.pipeline, "steps", [{ id: "s", map: { url: SITE } }]),
    field(T.pipeline, "steps", [[{ id: "s", map: { url: SITE } }]], [[[], "minItems"], [{ id: "s" }, "type"]]),
    closed(T.pipeline, "$schema"),
  ]);
});

describe("pipeline.schema.json step", () => {
  const id64 = `a${long(63)}`;
  check([
    required(T.step, "id", "s"),
    field(T.step, "id", ["s", "step_1-b", "Fetch", id64], [
      ["1step", "pattern"],
      ["-x", "pattern"],
      ["has space", "pattern"],
      [`${id64}x`, "maxLength"],
    ]),
    {
      name: "/steps/0 has exactly one kind",
      ok: [
        step({ scrape: { url: SITE } }),
        step({ crawl: { url: SITE } }),
        step({ map: { url: SITE } }),
        step({ extract: { urls: [SITE] } }),
      ],
      bad: [
        [step({}), "oneOf", "/steps/0"],
        [step({ scrape: { url: SITE }, map: { url: SITE } }), "oneOf", "/steps/0"],
        [step({ crawl: { url: SITE }, extract: { urls: [SITE] } }), "oneOf", "/steps/0"],
      ],
    },
    {
      name: "/steps/1/needs",
      ok: [twoSteps({ map: { url: SITE }, needs: ["site"] }), twoSteps({ map: { url: SITE }, needs: [] })],
      bad: [
        [twoSteps({ map: { url: SITE }, needs: ["site", "site"] }), "uniqueItems", "/steps/1/needs"],
        [twoSteps({ map: { url: SITE }, needs: ["1site"] }), "pattern", "/steps/1/needs/0"],
        [twoSteps({ map: { url: SITE }, needs: "site" }), "type", "/steps/1/needs"],
      ],
    },
    field(T.stepRetry, "attempts", [1, 20], [[0, "minimum"], [21, "maximum"]]),
    field(T.stepRetry, "initialDelayMs", [0], [[-1, "minimum"]]),
    field(T.stepRetry, "maxDelayMs", [0], [[-1, "minimum"]]),
    closed(T.stepRetry),
    field(T.step, "timeoutMs", [1, 600000], [[0, "minimum"], [1.5, "type"]]),
    bool(T.step, "continueOnError"),
    closed(T.step, "query"),
  ]);
});

describe("scrape.schema.json", () => {
  const S = T.scrape.path;
  const scrapeBody = (body: Json): Json => step({ scrape: body });
  check([
    field(T.scrape, "url", ["https://example.com/a?b=1", "http://127.0.0.1:8080/"], [["not a url", "format"], ["example.com", "format"], [5, "type"]]),
    {
      name: `${S}/urls (list)`,
      ok: [scrapeBody({ urls: [SITE] }), scrapeBody({ urls: ["https://a.example/", "https://b.example/x"] })],
      bad: [
        [scrapeBody({ urls: [] }), "minItems", `${S}/urls`],
        [scrapeBody({ urls: ["nope"] }), "format", `${S}/urls/0`],
        [scrapeBody({ urls: "https://a.example/" }), "oneOf", `${S}/urls`],
      ],
    },
    {
      name: `${S}/urls (from an earlier step)`,
      ok: [twoSteps({ scrape: { urls: { from: "site" } } })],
      bad: [[twoSteps({ scrape: { urls: { from: "site", max: 3 } } }), "additionalProperties", "/steps/1/scrape/urls"]],
    },
    {
      name: `${S} has exactly one of url and urls`,
      ok: [scrapeBody({ url: SITE }), scrapeBody({ urls: [SITE] })],
      bad: [
        [scrapeBody({ url: SITE, urls: [SITE] }), "oneOf", S],
        [scrapeBody({ formats: ["markdown"] }), "oneOf", S],
      ],
    },
    closed(T.scrape, "onlyMainContnt"),
  ]);
});

describe("scrape-options.schema.json", () => {
  const options = (target: Target): Rule[] => [
    field(target, "formats", [["markdown"], ["markdown", { type: "json" }], []], [["markdown", "type"], [["pdf"], "enum", "/0"]]),
    bool(target, "onlyMainContent"),
    field(target, "includeTags", [["main", ".content", "#id > p"]], [[[""], "minLength", "/0"], ["main", "type"], [[1], "type", "/0"]]),
    field(target, "excludeTags", [["nav", "footer"]], [[[""], "minLength", "/0"], ["nav", "type"]]),
    field(target, "maxAge", [0, 172800000], [[-1, "minimum"], [1.5, "type"]]),
    field(target, "headers", [{ "User-Agent": "scrapeline", Cookie: "a=b" }, {}], [[{ "X-N": 1 }, "type", "/X-N"], ["x", "type"]]),
    field(target, "waitFor", [0, 60000], [[-1, "minimum"], [60001, "maximum"], [0.5, "type"]]),
    bool(target, "mobile"),
    bool(target, "skipTlsVerification"),
    field(target, "timeout", [1000, 300000, 600000], [[999, "minimum"], ["30s", "type"]]),
    field(target, "parsePDF", [true, false], [["no", "type"]]),
    field(target, "parsers", [["pdf"], [], [{ type: "pdf" }], [{ type: "pdf", mode: "ocr", maxPages: 10 }]], [
      [["docx"], "oneOf", "/0"],
      [["docx"], "const", "/0"],
      [[{ type: "docx" }], "const", "/0/type"],
      ["pdf", "type"],
    ]),
    field(target, "jsonOptions", [{ schema: { type: "object" }, systemPrompt: "s", prompt: "p" }, {}], [
      [{ schema: "x" }, "type", "/schema"],
      [{ prompt: 5 }, "type", "/prompt"],
      [{ model: "x" }, "additionalProperties"],
    ]),
    field(target, "actions", [[{ type: "scrape" }], many(50, () => ({ type: "scrape" }))], [
      [many(51, () => ({ type: "scrape" })), "maxItems"],
      [{ type: "scrape" }, "type"],
    ]),
    field(target, "location", [{ country: "DE", languages: ["de-DE", "en"] }, {}], [[{ country: "de" }, "pattern", "/country"], ["US", "type"]]),
    bool(target, "removeBase64Images"),
    bool(target, "blockAds"),
    field(target, "proxy", ["basic", "enhanced", "auto", "stealth"], [["turbo", "enum"], [true, "type"]]),
    bool(target, "storeInCache"),
    field(target, "threatProtection", [{ mode: "normal" }, {}], [[{ mode: "strict" }, "enum", "/mode"], ["on", "type"]]),
    closed(target, "onlyCleanContent"),
  ];
  describe("in a scrape step", () => check(options(T.scrape)));
  describe("in pipeline defaults", () => check([...options(T.defaultOptions), closed(T.defaultOptions, "url")]));
  describe("in a crawl step", () => check(options(T.crawlOptions)));
  describe("in an extract step", () => check(options(T.extractOptions)));

  check([
    field(T.parser, "type", ["pdf"], [["docx", "const"]]),
    field(T.parser, "mode", ["fast", "auto", "ocr"], [["slow", "enum"]]),
    field(T.parser, "maxPages", [1, 10000], [[0, "minimum"], [10001, "maximum"], [1.5, "type"]]),
    {
      name: `${T.parser.path} requires type`,
      ok: [step({ scrape: { url: SITE, parsers: [{ type: "pdf" }] } })],
      bad: [[step({ scrape: { url: SITE, parsers: [{ mode: "fast" }] } }), "required", T.parser.path]],
    },
    closed(T.parser),
    field(T.location, "country", ["US", "DE"], [["us", "pattern"], ["USA", "pattern"], ["U", "pattern"], [1, "type"]]),
    field(T.location, "languages", [["en-US", "fr"], []], [["en", "type"], [[""], "minLength", "/0"]]),
    closed(T.location, "timezone"),
    field(T.trackingOptions, "modes", [["git-diff"], ["git-diff", "json"], []], [
      [["diff"], "enum", "/0"],
      [["json", "json"], "uniqueItems"],
      ["json", "type"],
    ]),
    field(T.trackingOptions, "schema", [{ type: "object", properties: { price: { type: "number" } } }], [["x", "type"], [[], "type"]]),
    field(T.trackingOptions, "prompt", ["compare prices"], [[5, "type"]]),
    field(T.trackingOptions, "tag", ["nightly", null], [[5, "type"]]),
    closed(T.trackingOptions, "mode"),
    closed(T.jsonOptions, "model"),
  ]);
});

describe("formats.schema.json", () => {
  const strings = ["markdown", "html", "rawHtml", "links", "summary", "images", "screenshot", "changeTracking", "json", "extract", "screenshot@fullPage"];
  const formatsDoc = (formats: unknown[]): Json => step({ scrape: { url: SITE, formats } });
  const screenshot = format("screenshot");
  const tracking = format("changeTracking");
  const json = format("json");
  check([
    {
      name: `${FORMAT} as a string`,
      ok: strings.map((s) => formatsDoc([s])),
      bad: [
        [formatsDoc(["pdf"]), "enum", FORMAT],
        [formatsDoc(["Markdown"]), "oneOf", FORMAT],
        [formatsDoc([5]), "oneOf", FORMAT],
      ],
    },
    {
      name: `${FORMAT} as an object is selected by type`,
      ok: ["markdown", "html", "rawHtml", "links", "summary", "images", "json", "screenshot", "changeTracking"].map((type) => formatsDoc([{ type }, "markdown"])),
      bad: [
        [formatsDoc([{ type: "pdf" }]), "discriminator", FORMAT],
        [formatsDoc([{ prompt: "x" }]), "discriminator", FORMAT],
        [formatsDoc([{ type: 5 }]), "discriminator", FORMAT],
      ],
    },
    closed(format("markdown"), "prompt"),
    closed(format("links"), "limit"),
    field(json, "prompt", ["Name and price", long(10000)], [[long(10001), "maxLength"], [5, "type"]]),
    field(json, "schema", [{ type: "object", properties: { name: { type: "string" } } }, {}], [["x", "type"], [[], "type"]]),
    closed(json, "systemPrompt"),
    bool(screenshot, "fullPage"),
    field(screenshot, "quality", [1, 100], [[0, "minimum"], [101, "maximum"], [50.5, "type"]]),
    field(viewport(screenshot), "width", [1, 7680], [[0, "minimum"], [7681, "maximum"], [1.5, "type"]]),
    field(viewport(screenshot), "height", [1, 4320], [[0, "minimum"], [4321, "maximum"]]),
    required(viewport(screenshot), "width", 1024),
    required(viewport(screenshot), "height", 768),
    closed(viewport(screenshot), "depth"),
    closed(screenshot, "selector"),
    field(tracking, "modes", [[], ["git-diff"], ["git-diff", "json"]], [
      [["diff"], "enum", "/0"],
      [["git-diff", "git-diff"], "uniqueItems"],
      ["git-diff", "type"],
    ]),
    field(tracking, "schema", [{ type: "object" }], [["x", "type"]]),
    field(tracking, "prompt", ["what changed"], [[5, "type"]]),
    field(tracking, "tag", ["nightly", null], [[5, "type"], [["a"], "type"]]),
    closed(tracking, "mode"),
  ]);
});

describe("actions.schema.json", () => {
  const actionsDoc = (actions: unknown[]): Json => step({ scrape: { url: SITE, actions } });
  const wait = action("wait", { milliseconds: 1000 });
  const screenshot = action("screenshot");
  const click = action("click", { selector: "button" });
  const write = action("write", { text: "hello" });
  const press = action("press", { key: "Enter" });
  const scroll = action("scroll");
  const execute = action("executeJavascript", { script: "window.scrollTo(0, 0)" });
  const pdf = action("pdf");
  check([
    {
      name: `${ACTION} is selected by type`,
      ok: [
        actionsDoc([
          { type: "wait", milliseconds: 1 },
          { type: "screenshot" },
          { type: "click", selector: "a" },
          { type: "write", text: "x" },
          { type: "press", key: "Tab" },
          { type: "scroll" },
          { type: "scrape" },
          { type: "executeJavascript", script: "1" },
          { type: "pdf" },
        ]),
      ],
      bad: [
        [actionsDoc([{ type: "hover", selector: "a" }]), "discriminator", ACTION],
        [actionsDoc([{ selector: "a" }]), "discriminator", ACTION],
        [actionsDoc(["scrape"]), "type", ACTION],
      ],
    },
    {
      name: `${ACTION} wait needs milliseconds or selector`,
      ok: [
        actionsDoc([{ type: "wait", milliseconds: 500 }]),
        actionsDoc([{ type: "wait", selector: "#content" }]),
        actionsDoc([{ type: "wait", milliseconds: 500, selector: "#content" }]),
      ],
      bad: [[actionsDoc([{ type: "wait" }]), "anyOf", ACTION]],
    },
    field(wait, "milliseconds", [1, 60000], [[0, "minimum"], [1.5, "type"]]),
    field(wait, "selector", ["#content"], [["", "minLength"], [5, "type"]]),
    closed(wait, "timeout"),
    bool(screenshot, "fullPage"),
    field(screenshot, "quality", [1, 100], [[0, "minimum"], [101, "maximum"], [80.5, "type"]]),
    field(viewport(screenshot), "width", [1, 7680], [[0, "minimum"], [7681, "maximum"]]),
    field(viewport(screenshot), "height", [1, 4320], [[0, "minimum"], [4321, "maximum"], [1.5, "type"]]),
    required(viewport(screenshot), "width", 1280),
    required(viewport(screenshot), "height", 720),
    closed(viewport(screenshot), "scale"),
    closed(screenshot, "selector"),
    required(click, "selector", "a.next"),
    field(click, "selector", ["a.next"], [["", "minLength"], [1, "type"]]),
    bool(click, "all"),
    closed(click, "button"),
    required(write, "text", "hello"),
    field(write, "text", ["", "hello"], [[5, "type"]]),
    closed(write, "selector"),
    required(press, "key", "Enter"),
    field(press, "key", ["Enter", "a"], [["", "minLength"], [13, "type"]]),
    closed(press, "modifiers"),
    field(scroll, "direction", ["up", "down"], [["left", "enum"]]),
    field(scroll, "selector", ["#list"], [["", "minLength"]]),
    closed(scroll, "amount"),
    closed(action("scrape"), "selector"),
    required(execute, "script", "return 1"),
    field(execute, "script", ["return document.title"], [["", "minLength"], [5, "type"]]),
    closed(execute, "args"),
    field(pdf, "format", ["A0", "A4", "A6", "Letter", "Legal", "Tabloid", "Ledger"], [["B5", "enum"], ["letter", "enum"]]),
    bool(pdf, "landscape"),
    field(pdf, "scale", [0.1, 1, 2], [[0.05, "minimum"], [2.5, "maximum"], ["1", "type"]]),
    closed(pdf, "margin"),
  ]);
});

describe("threat-protection.schema.json", () => {
  const domains = ["example.com", "*.example.com", "Sub-Domain.Example.COM", "xn--bcher-kva.example", "localhost", "a1.b2.c3"];
  const badDomains = ["https://example.com", "example.com/path", "example.com:8080", "*example.com", "*.*.example.com", "-bad.example.com", "bad-.example.com", "a..b", ".example.com", "exa mple.com", ""];
  const list = (key: string): Rule => ({
    name: `${T.threat.path}/${key}`,
    ok: [T.threat.doc({ [key]: domains }), T.threat.doc({ [key]: [] }), T.threat.doc({ [key]: many(1000, (i) => `host${i}.example.com`) })],
    bad: [
      ...badDomains.map((d): Bad => [T.threat.doc({ [key]: [d] }), "pattern", `${T.threat.path}/${key}/0`]),
      [T.threat.doc({ [key]: many(1001, (i) => `host${i}.example.com`) }), "maxItems", `${T.threat.path}/${key}`],
      [T.threat.doc({ [key]: "example.com" }), "type", `${T.threat.path}/${key}`],
    ],
  });
  check([
    field(T.threat, "mode", ["off", "normal"], [["strict", "enum"], [true, "type"]]),
    field(T.threat, "riskScoreThreshold", [0, 50, 100], [[-1, "minimum"], [101, "maximum"], [50.5, "type"]]),
    list("blacklist"),
    list("whitelist"),
    field(T.threat, "blockedTlds", [["zip", "mov", "xn--p1ai", "com"], [], many(1000, (i) => `t${i}`)], [
      [[".com"], "pattern", "/0"],
      [["COM"], "pattern", "/0"],
      [["co.uk"], "pattern", "/0"],
      [["-ab"], "pattern", "/0"],
      [[""], "pattern", "/0"],
      [many(1001, (i) => `t${i}`), "maxItems"],
    ]),
    field(T.threat, "failurePolicy", ["open", "closed"], [["fail", "enum"]]),
    closed(T.threat, "enabled"),
    field(T.extract, "threatProtection", [{ mode: "normal", failurePolicy: "closed" }], [[{ riskScoreThreshold: 200 }, "maximum", "/riskScoreThreshold"]]),
  ]);
});

describe("url-source.schema.json", () => {
  const U = T.urlSource.path;
  check([
    {
      name: `${U} requires from`,
      ok: [twoSteps({ scrape: { urls: { from: "site" } } })],
      bad: [[twoSteps({ scrape: { urls: { limit: 5 } } }), "required", U]],
    },
    field(T.urlSource, "from", ["site"], [["1site", "pattern"], ["", "pattern"], [`a${long(64)}`, "maxLength"], [5, "type"]]),
    field(T.urlSource, "include", [["/blog/**"], []], [[[""], "minLength", "/0"], ["/blog/**", "type"]]),
    field(T.urlSource, "exclude", [["**/draft/**"]], [[[""], "minLength", "/0"], [[1], "type", "/0"]]),
    field(T.urlSource, "limit", [1, 20], [[0, "minimum"], [2.5, "type"]]),
    closed(T.urlSource, "max"),
  ]);
});

describe("crawl.schema.json", () => {
  check([
    required(T.crawl, "url", SITE),
    field(T.crawl, "url", ["https://docs.example.com"], [["docs.example.com", "format"]]),
    field(T.crawl, "prompt", ["only the blog posts", long(10000)], [[long(10001), "maxLength"]]),
    field(T.crawl, "includePaths", [["^/blog/.*"], []], [["^/blog", "type"], [[1], "type", "/0"]]),
    field(T.crawl, "excludePaths", [["/tag/"]], [["/tag/", "type"], [[null], "type", "/0"]]),
    bool(T.crawl, "regexOnFullURL"),
    field(T.crawl, "maxDiscoveryDepth", [0, 3], [[-1, "minimum"], [1.5, "type"]]),
    field(T.crawl, "sitemap", ["include", "skip", "only"], [["never", "enum"], [false, "type"]]),
    bool(T.crawl, "crawlEntireDomain"),
    bool(T.crawl, "allowSubdomains"),
    bool(T.crawl, "allowExternalLinks"),
    bool(T.crawl, "ignoreQueryParameters"),
    bool(T.crawl, "deduplicateSimilarURLs"),
    field(T.crawl, "limit", [1, 10000], [[0, "minimum"], [1.5, "type"]]),
    field(T.crawl, "delay", [0, 1.5], [[-1, "minimum"], ["1s", "type"]]),
    field(T.crawl, "scrapeOptions", [{ formats: ["markdown"] }], [[{ proxy: "turbo" }, "enum", "/proxy"]]),
    // v1 options, accepted (the loader maps them to v2 with a warning)
    field(T.crawl, "maxDepth", [0, 10], [[-1, "minimum"], [1.5, "type"]]),
    bool(T.crawl, "allowBackwardCrawling"),
    bool(T.crawl, "allowBackwardLinks"),
    bool(T.crawl, "ignoreSitemap"),
    closed(T.crawl, "maxConcurrency"),
  ]);
});

describe("map.schema.json", () => {
  check([
    required(T.map, "url", SITE),
    field(T.map, "url", ["https://example.com"], [["example", "format"]]),
    field(T.map, "search", ["pricing"], [[5, "type"]]),
    field(T.map, "sitemap", ["include", "skip", "only"], [["always", "enum"]]),
    bool(T.map, "includeSubdomains"),
    bool(T.map, "ignoreQueryParameters"),
    field(T.map, "limit", [1, 5000, 100000], [[0, "minimum"], [100001, "maximum"], [1.5, "type"]]),
    field(T.map, "timeout", [1, 999, 60000], [[0, "minimum"], [1.5, "type"]]),
    closed(T.map, "includePaths"),
  ]);
});

describe("extract.schema.json", () => {
  const E = T.extract.path;
  check([
    required(T.extract, "urls", [SITE]),
    field(T.extract, "urls", [[SITE], ["https://example.com/products/*", "example.com/*", "not a url"]], [
      [[], "minItems"],
      [[""], "minLength", "/0"],
      [[5], "type", "/0"],
      [SITE, "oneOf"],
    ]),
    {
      name: `${E}/urls from an earlier step`,
      ok: [twoSteps({ extract: { urls: { from: "site", include: ["**/products/**"] } } })],
      bad: [
        [twoSteps({ extract: { urls: { from: "site", foo: 1 } } }), "additionalProperties", "/steps/1/extract/urls"],
        [twoSteps({ extract: { urls: { include: ["**"] } } }), "required", "/steps/1/extract/urls"],
      ],
    },
    field(T.extract, "prompt", ["Name and price", long(10000)], [[long(10001), "maxLength"], [5, "type"]]),
    field(T.extract, "schema", [{ type: "object", properties: { name: { type: "string" } } }], [["object", "type"], [[], "type"]]),
    bool(T.extract, "enableWebSearch"),
    bool(T.extract, "ignoreSitemap"),
    bool(T.extract, "includeSubdomains"),
    bool(T.extract, "showSources"),
    bool(T.extract, "ignoreInvalidURLs"),
    field(T.extract, "scrapeOptions", [{ onlyMainContent: false }], [[{ waitFor: 60001 }, "maximum", "/waitFor"]]),
    closed(T.extract, "systemPrompt"),
  ]);
});

describe("v1 forms are accepted", () => {
  check([
    {
      name: "v1 scrape options and format names",
      ok: [
        T.scrape.doc({ parsePDF: false }),
        T.scrape.doc({ formats: ["markdown", "extract"], jsonOptions: { prompt: "title" } }),
        T.scrape.doc({ formats: ["json"], jsonOptions: { schema: { type: "object" }, systemPrompt: "be brief" } }),
        T.scrape.doc({ formats: ["screenshot@fullPage"] }),
        T.scrape.doc({ formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["git-diff"], tag: "v1" } }),
        T.crawl.doc({ maxDepth: 2, allowBackwardCrawling: true, allowBackwardLinks: false, ignoreSitemap: true }),
      ],
      bad: [
        [T.scrape.doc({ parsePDF: "yes" }), "type", "/steps/0/scrape/parsePDF"],
        [T.scrape.doc({ formats: ["screenshot@viewport"] }), "enum", FORMAT],
        [T.crawl.doc({ maxDepth: -1 }), "minimum", "/steps/0/crawl/maxDepth"],
      ],
    },
  ]);
});
