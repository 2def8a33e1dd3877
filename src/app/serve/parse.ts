import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { Document, Pipeline, Step } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { readRequestBody } from "../../pipeline/index.js";

/** The largest upload POST /v2/parse takes (the service's limit). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Scrape options that need a page in a browser (or a location to fetch from): a 400 on /v2/parse. */
const BROWSER_ONLY = ["actions", "waitFor", "location", "mobile"];
const BROWSER_FORMATS = ["screenshot", "screenshot@fullPage", "changeTracking"];

/** An uploaded file, streamed to a temporary directory the handler removes afterwards. */
export interface Upload {
  /** Where the upload was written. */
  path: string;
  /** The filename the client gave (its extension is checked against the content). */
  filename: string;
}

/**
 * The `options` field of POST /v2/parse as a parse step: scrape options minus those that need a
 * browser (each refused by name), checked by the same schema as a pipeline's parse step.
 */
export function readParseCall(rawOptions: string | undefined, upload: Upload): { step: Extract<Step, { kind: "parse" }>; pipeline: Pipeline } {
  let options: unknown = {};
  if (rawOptions !== undefined && rawOptions.trim() !== "") {
    try {
      options = JSON.parse(rawOptions);
    } catch {
      throw new ScrapelineError("invalid-input", "Bad request: the options field is not valid JSON");
    }
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new ScrapelineError("invalid-input", "Bad request: the options field must be a JSON object");
  const body = { ...(options as Record<string, unknown>) };
  for (const key of BROWSER_ONLY) {
    if (key in body) throw new ScrapelineError("invalid-input", `Bad request: ${key} is not supported by parse: it needs a page in a browser`);
  }
  if (Array.isArray(body.formats)) {
    for (const format of body.formats) {
      const type = typeof format === "string" ? format : (format as { type?: unknown } | null)?.type;
      if (typeof type === "string" && BROWSER_FORMATS.includes(type)) throw new ScrapelineError("invalid-input", `Bad request: format ${type} is not supported by parse`);
    }
  }
  if ("proxy" in body) {
    if (body.proxy !== "auto" && body.proxy !== "basic") throw new ScrapelineError("invalid-input", `Bad request: proxy ${JSON.stringify(body.proxy)} is not supported by parse (auto or basic)`);
    delete body.proxy;
  }
  for (const key of ["origin", "integration", "maxAge", "storeInCache", "headers", "skipTlsVerification"]) delete body[key];
  const reading = readRequestBody("parse", { ...body, files: [basename(upload.path)] });
  const errors = reading.diagnostics.filter((d) => d.severity === "error");
  if (!reading.step || !reading.pipeline || errors.length > 0) {
    const unknown = errors.some((d) => d.code === "unknown-key");
    throw new ScrapelineError("invalid-input", `${unknown ? "Unrecognized key in options -- " : "Bad request: "}${errors.map((d) => `${d.message}${d.hint ? ` (${d.hint})` : ""}`).join("; ") || "invalid options"}`);
  }
  return { step: reading.step as Extract<Step, { kind: "parse" }>, pipeline: reading.pipeline };
}

/**
 * The parsed upload as the service answers it: named by the upload's filename, with nothing of
 * the temporary directory it was parsed in. Links into the file itself become fragment-only
 * (`#footnote-1`), links beside it relative (`Pictures/logo.png`), and a modification time that is
 * only the temporary copy's (`writtenAt`: not a property of the file) is left out.
 */
export function asUploaded(document: Document, upload: Upload, writtenAt: string | undefined): Document {
  const self = pathToFileURL(upload.path).href;
  const folder = `${pathToFileURL(dirname(upload.path)).href}/`;
  const rebase = (text: string): string => text.split(self).join("").split(folder).join("");
  const out: Document = { ...document };
  for (const key of ["markdown", "html", "rawHtml"] as const) if (typeof out[key] === "string") out[key] = rebase(out[key]);
  if (out.links) out.links = out.links.map(rebase);
  if (out.images) out.images = out.images.map(rebase);
  const { modifiedTime, ...metadata } = document.metadata;
  const own = modifiedTime !== undefined && modifiedTime !== writtenAt ? { modifiedTime } : {};
  out.metadata = { ...metadata, ...own, sourceURL: upload.filename, url: upload.filename, sourceFile: upload.filename };
  return out;
}
