import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import type { Document, ExtractResult, Store, StoredDocument } from "../../core/index.js";
import { assetBytes, inlineAssets } from "../common/index.js";
import { extractRows } from "./result.js";
import { isSearchResult, searchRows } from "./search.js";
import { agentRows, isAgentResult } from "./agent.js";
import { ScrapelineError } from "../../core/index.js";
import { resolveRunId } from "./history.js";
import { openExistingRunStore } from "../common/index.js";
import { writeTree } from "./tree.js";

export type ExportFormat = "json" | "jsonl" | "csv" | "markdown" | "tree";

export interface ExportOptions {
  db: string;
  run?: string | number;
  step?: string;
  format: ExportFormat;
  /** A file (json, jsonl, csv) or a directory (markdown); stdout when absent (not for markdown). */
  out?: string;
  write?: (text: string) => void;
  /** json/jsonl: screenshots and PDFs inline as data: URLs (default), or as references into the database. */
  assets?: "inline" | "refs";
}

/** Writes a run's stored Documents in the chosen format; returns how many were written. */
export async function exportRun(options: ExportOptions): Promise<{ runId: number; count: number }> {
  const store = openExistingRunStore(options.db);
  try {
    const runId = resolveRunId(store, options.run);
    if (options.step && !store.getSteps(runId).some((s) => s.stepId === options.step)) {
      throw new ScrapelineError("invalid-input", `run ${runId} has no step "${options.step}"`);
    }
    const result = options.step ? store.stepResult(runId, options.step) : undefined;
    if (options.format === "tree") {
      if (!options.out) throw new ScrapelineError("invalid-input", "--format tree writes one .md and one .json file per page: give a directory with --out");
      return { runId, count: await writeTree(store.documents(runId, options.step), options.out) };
    }
    if (result !== undefined && options.format !== "markdown") return { runId, count: await writeResult(JSON.parse(result) as ExtractResult, options) };
    const documents = store.documents(runId, options.step);
    if (options.format === "markdown") {
      if (!options.out) throw new ScrapelineError("invalid-input", "--format markdown writes one file per page: give a directory with --out");
      return { runId, count: await writeMarkdownFiles(documents, options.out, store) };
    }
    const sink = await openSink(options);
    // Screenshots and PDFs as data: URLs (self-contained, as the service answers) or as the database's references.
    const shape = (document: Document): Document => (options.assets === "refs" ? document : inlineAssets(document, store));
    let count = 0;
    if (options.format === "json") {
      sink.write("[\n");
      for (const d of documents) sink.write(`${count++ ? ",\n" : ""}${JSON.stringify(shape(d.document))}`);
      sink.write("\n]\n");
    } else if (options.format === "jsonl") {
      for (const d of documents) {
        sink.write(`${JSON.stringify(shape(d.document))}\n`);
        count++;
      }
    } else {
      const rows = [...documents];
      count = rows.length;
      sink.write(toCsv(rows));
    }
    await sink.close();
    return { runId, count };
  } finally {
    store.close();
  }
}

/** An extract step's result: the finished extract as json, its data's rows as jsonl or csv. */
async function writeResult(result: ExtractResult, options: ExportOptions): Promise<number> {
  const sink = await openSink(options);
  let count = 1;
  if (options.format === "json") sink.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const rows = isSearchResult(result) ? searchRows(result) : isAgentResult(result) ? agentRows(result) : extractRows(result);
    count = rows.length;
    if (options.format === "jsonl") for (const row of rows) sink.write(`${JSON.stringify(row)}\n`);
    else sink.write(csvOf(rows.map((row) => flatten(row))));
  }
  await sink.close();
  return count;
}

async function openSink(options: ExportOptions): Promise<{ write: (t: string) => void; close: () => Promise<void> }> {
  if (!options.out) {
    const write = options.write ?? ((t: string) => void process.stdout.write(t));
    return { write, close: async () => {} };
  }
  const stream = createWriteStream(options.out);
  await once(stream, "open");
  return {
    write: (t) => void stream.write(t),
    close: async () => {
      stream.end();
      await once(stream, "finish");
    },
  };
}

/** step, url, status and title, then every field of the extracted `json` flattened to dotted columns. */
function toCsv(rows: StoredDocument[]): string {
  return csvOf(rows.map((r) => ({ step: r.stepId, url: r.url, status: String(r.document.metadata.statusCode ?? ""), title: String(firstOf(r.document.metadata.title) ?? ""), ...flatten(r.document.json) })));
}

function csvOf(flat: Array<Record<string, string>>): string {
  const columns = [...new Set(flat.flatMap((row) => Object.keys(row)))];
  const line = (cells: string[]) => cells.map(csvCell).join(",");
  return [line(columns), ...flat.map((row) => line(columns.map((c) => (row as Record<string, string>)[c] ?? "")))].join("\r\n") + "\r\n";
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function flatten(value: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (value === undefined) return out;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out[prefix] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

async function writeMarkdownFiles(documents: Iterable<StoredDocument>, dir: string, store: Pick<Store, "asset">): Promise<number> {
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  let count = 0;
  for (const d of documents) {
    const name = uniqueName(fileNameFor(d.stepId, d.url), used);
    const meta = d.document.metadata;
    const images = await writeScreenshots(d.document, dir, name.replace(/\.md$/, ""), store);
    const front = ["---", `url: ${JSON.stringify(d.url)}`, `step: ${JSON.stringify(d.stepId)}`, `status: ${meta.statusCode}`, ...(meta.title ? [`title: ${JSON.stringify(firstOf(meta.title))}`] : []), `fetchedAt: ${JSON.stringify(d.fetchedAt)}`, `credits: ${d.creditsUsed}`, ...images, "---", ""];
    await writeFile(join(dir, name), `${front.join("\n")}${d.document.markdown ?? ""}`);
    count++;
  }
  return count;
}

/** Media types of screenshots and PDFs, and the extension of their files. */
const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "application/pdf": "pdf" };

/**
 * Writes the page's screenshot, action screenshots and action PDFs (stored once in the database,
 * or data: URLs) as files beside its markdown file, named after it; returns the front-matter lines naming them.
 */
async function writeScreenshots(document: StoredDocument["document"], dir: string, base: string, store: Pick<Store, "asset">): Promise<string[]> {
  const lines: string[] = [];
  const write = async (value: string | undefined, suffix: string): Promise<string | undefined> => {
    const asset = assetBytes(store, value);
    const extension = asset ? EXTENSIONS[asset.mediaType] : undefined;
    if (!asset || !extension) return undefined;
    const file = `${base}${suffix}.${extension}`;
    await writeFile(join(dir, file), asset.bytes);
    return file;
  };
  const screenshot = await write(document.screenshot, "");
  if (screenshot) lines.push(`screenshot: ${JSON.stringify(screenshot)}`);
  for (const [key, list, suffix] of [["actionScreenshots", document.actions?.screenshots, "-screenshot"], ["actionPdfs", document.actions?.pdfs, "-pdf"]] as const) {
    const files: string[] = [];
    for (const [i, item] of (list ?? []).entries()) {
      const file = await write(item, `${suffix}-${i + 1}`);
      if (file) files.push(file);
    }
    if (files.length > 0) lines.push(`${key}: ${JSON.stringify(files)}`);
  }
  return lines;
}

/** `<step>--<host and path>.md`: the same page in two steps gets two names that say which is which. */
function fileNameFor(stepId: string, url: string): string {
  let base: string;
  try {
    const u = new URL(url);
    base = `${u.hostname}${u.pathname}`.replace(/\/+$/, "") || u.hostname;
  } catch {
    base = url;
  }
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `${safe(stepId).slice(0, 60)}--${safe(base).slice(0, 120) || "page"}.md`;
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let i = 2; used.has(candidate); i++) candidate = name.replace(/\.md$/, `-${i}.md`);
  used.add(candidate);
  return candidate;
}
