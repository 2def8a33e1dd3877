import { mkdirSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Document, Engine, ParseOptions, Step } from "../../core/index.js";
import { isScrapelineError, ScrapelineError } from "../../core/index.js";
import { LocalEngine } from "../../engines/local/index.js";
import { readRequestBody } from "../../pipeline/index.js";
import { createRemoteEngine } from "./remote.js";

export interface ParseFilesOptions {
  format: "markdown" | "json";
  /** Write one file per document here (NAME.md or NAME.json) instead of answering the text. */
  out?: string;
  /** Where the files are converted: here (default), or uploaded to the service (POST /v2/parse). */
  engine?: "local" | "firecrawl";
  /** Where FIRECRAWL_API_KEY and FIRECRAWL_API_URL are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The engine that converts the files; the service's needs its key, checked before any file is read. */
export function parseEngine(options: Pick<ParseFilesOptions, "engine" | "env">): Engine {
  if (options.engine === "firecrawl") return createRemoteEngine({ apiKeyEnv: "FIRECRAWL_API_KEY" }, options.env ?? process.env);
  return new LocalEngine({ allowPrivateNetwork: false });
}

/** What became of one file: its document and what was written, or why it failed. */
export type ParsedFileResult = { file: string; document: Document; written?: string } | { file: string; error: string };

/**
 * `scrapeline parse FILE..`: each file converted with a parse step's defaults (no pipeline, no
 * store), on the local engine or uploaded to the service; a file that fails does not stop the others.
 */
export async function parseFiles(files: readonly string[], options: ParseFilesOptions): Promise<ParsedFileResult[]> {
  const parseOptions = defaultParseOptions(options.format);
  const engine = parseEngine(options);
  if (!engine.parse) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot parse files`);
  const results: ParsedFileResult[] = [];
  const used = new Set<string>();
  try {
    if (options.out) mkdirSync(options.out, { recursive: true });
    for (const file of files) {
      try {
        const path = resolve(file);
        const info = await stat(path).catch(() => {
          throw new ScrapelineError("not-found", `${file}: no such file`);
        });
        if (!info.isFile()) throw new ScrapelineError("bad-content", `${file} is not a file`);
        if (info.size > parseOptions.maxFileSize) throw new ScrapelineError("too-large", `${file} is over the ${Math.floor(parseOptions.maxFileSize / 1048576)} MB limit of a parsed file`);
        const document = await engine.parse!({ name: file, bytes: await readFile(path), url: pathToFileURL(path).href, modifiedTime: info.mtime.toISOString() }, parseOptions);
        document.metadata.sourceFile = file;
        const result: ParsedFileResult = { file, document };
        if (options.out) {
          const target = join(options.out, uniqueName(basename(file, extname(file)), options.format === "json" ? ".json" : ".md", used));
          writeFileSync(target, options.format === "json" ? `${JSON.stringify(document, null, 2)}\n` : document.markdown ?? "");
          result.written = target;
        }
        results.push(result);
      } catch (error) {
        if (!isScrapelineError(error)) throw error;
        results.push({ file, error: error.message });
      }
    }
  } finally {
    await engine.close();
  }
  return results;
}

/** A parse step's options with every default, as a pipeline would give them. */
function defaultParseOptions(format: "markdown" | "json"): ParseOptions {
  const reading = readRequestBody("parse", { files: ["-"], allowOutside: true, ...(format === "json" ? { formats: ["markdown", "links"] } : {}) });
  const step = reading.step as Extract<Step, { kind: "parse" }> | undefined;
  if (!step) throw new ScrapelineError("internal", "the parse step's defaults did not load");
  const { files: _files, allowOutside: _allowOutside, ...options } = step.body;
  return options;
}

/** `name.ext`, or `name-2.ext`… when two files share a name. */
function uniqueName(name: string, extension: string, used: Set<string>): string {
  let candidate = `${name}${extension}`;
  for (let i = 2; used.has(candidate); i++) candidate = `${name}-${i}${extension}`;
  used.add(candidate);
  return candidate;
}
