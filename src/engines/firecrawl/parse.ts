import { randomBytes } from "node:crypto";
import type { Document, ParseInput, ParseOptions } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ServiceHttp } from "./http.js";

/**
 * The scrape options POST /v2/parse takes. The others of a normalized step (waitFor, mobile,
 * location, proxy…) are refused by the service even at their defaults; maxRows and maxFileSize
 * are the runner's own (the file's size is checked before it is read).
 */
const SENT_OPTIONS = ["onlyMainContent", "includeTags", "excludeTags", "timeout", "parsers", "removeBase64Images", "blockAds"] as const;

/** Time for the upload and the answer beyond the conversion's own `timeout`. */
const UPLOAD_MARGIN_MS = 30_000;

interface ParseAnswer {
  success?: boolean;
  data?: Document;
  creditsUsed?: number;
  error?: string;
  warning?: string;
}

/**
 * One file uploaded to the service's POST /v2/parse as multipart/form-data (a `file` part and an
 * `options` JSON field), its answer mapped to the document a local parse stores: the file: URL as
 * sourceURL (the service names the upload), the file system's modification time when the service
 * gave none, and the credits the service billed (metadata.creditsUsed, else the answer's creditsUsed).
 * Change tracking is not sent: the service refuses it on parse, and the runner compares files itself.
 */
export async function parseOnService(http: ServiceHttp, file: ParseInput, options: ParseOptions, signal?: AbortSignal): Promise<Document> {
  const filename = file.name.split(/[\\/]/).pop() || "upload";
  const upload = multipart(filename, file.bytes, JSON.stringify(serviceOptions(options)));
  // The service may take the whole `timeout` converting, after the upload: the request waits that long and a margin.
  const answer = await http.call<ParseAnswer>("POST", "/v2/parse", { upload, what: `the parse of ${file.name}`, minTimeoutMs: options.timeout + UPLOAD_MARGIN_MS, ...(signal ? { signal } : {}) });
  if (answer.success === false || !answer.data || typeof answer.data !== "object") {
    throw new ScrapelineError("bad-content", `the service could not parse ${file.name}${answer.error ? `: ${answer.error}` : ""}`, { url: file.url });
  }
  const document = answer.data;
  const metadata = { ...(document.metadata ?? {}) };
  metadata.sourceURL = file.url;
  metadata.url = file.url;
  metadata.statusCode ??= 200;
  if (metadata.modifiedTime === undefined && file.modifiedTime) metadata.modifiedTime = file.modifiedTime;
  if (typeof metadata.creditsUsed !== "number" && typeof answer.creditsUsed === "number") metadata.creditsUsed = answer.creditsUsed;
  const warning = document.warning ?? answer.warning;
  return { ...resolveLinks(document, file.url), metadata, ...(warning ? { warning } : {}) };
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Links the service left relative to the upload (`#footnote-1`, `Pictures/logo.png`) resolved
 * against the file's own URL, as a local parse writes them: in links, images, the markdown's link
 * targets and the html's href/src attributes. Absolute links are kept as they are.
 */
export function resolveLinks(document: Document, base: string): Document {
  const resolve = (target: string): string => {
    if (target === "" || ABSOLUTE.test(target) || target.startsWith("//")) return target;
    try {
      return new URL(target, base).href;
    } catch {
      return target;
    }
  };
  const out: Document = { ...document };
  if (typeof out.markdown === "string") out.markdown = out.markdown.replace(/\]\(([^)\s]+)/g, (_m, target: string) => `](${resolve(target)}`);
  if (typeof out.html === "string") out.html = out.html.replace(/\b(href|src)="([^"]*)"/g, (_m, attr: string, target: string) => `${attr}="${resolve(target)}"`);
  if (out.links) out.links = out.links.map(resolve);
  if (out.images) out.images = out.images.map(resolve);
  return out;
}

/** The options field: the scrape options the service takes, formats without changeTracking. */
export function serviceOptions(options: ParseOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { formats: options.formats.filter((f) => f.type !== "changeTracking") };
  for (const key of SENT_OPTIONS) if (options[key] !== undefined) out[key] = options[key];
  return out;
}

/** A multipart/form-data body with the file part first and the options field after it. */
export function multipart(filename: string, bytes: Uint8Array, options: string): { contentType: string; bytes: Uint8Array } {
  const boundary = `----scrapeline${randomBytes(12).toString("hex")}`;
  const quoted = filename.replace(/[\r\n"]/g, (c) => (c === '"' ? "%22" : " "));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\nContent-Type: application/octet-stream\r\n\r\n`, "utf8");
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="options"\r\nContent-Type: application/json\r\n\r\n${options}\r\n--${boundary}--\r\n`, "utf8");
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat([head, bytes, tail]) };
}
