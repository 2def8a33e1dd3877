import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { gunzip as gunzipCallback, gunzipSync } from "node:zlib";
import { ScrapelineError } from "../../core/index.js";

/** Bodies over this many bytes are stored gzipped. */
export const GZIP_OVER_BYTES = 4096;
export const FIXTURE_FORMAT = 1;

/** A response of the fetch gate as recorded: the body is a file of `bodies/`, named by its content's hash. */
export interface RecordedResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  redirects: string[];
  body: string;
}

/** A request that failed, recorded so that its replay fails the same way. */
export interface RecordedFailure {
  error: { kind: string; message: string; status?: number };
}

export interface RecordedModelAnswer {
  /** The model asked (the request is known by its hash only). */
  model: string;
  status: number;
  text: string;
  retryAfter?: string;
}

export interface RecordedSearch {
  query: string;
  answer: unknown;
}

/** One answer of the firecrawl service: its body is a file of `bodies/`. */
export interface RecordedServiceAnswer {
  status: number;
  body: string;
  retryAfter?: string;
}

/**
 * index.json of a fixture: what the run asked and what it was answered. Requests are keyed by
 * method and URL (credentials taken out), model calls and searches by the hash of their request.
 */
export interface FixtureIndex {
  format: number;
  /** The model the run used, without its key: a replay answers as this model. */
  model?: { baseUrl: string; model: string };
  requests: Record<string, RecordedResponse | RecordedFailure>;
  modelCalls: Record<string, RecordedModelAnswer>;
  searches: Record<string, RecordedSearch>;
  /** What pages loaded in the browser asked (the page and every resource it loaded), keyed like `requests`. */
  browser: Record<string, RecordedResponse | RecordedFailure>;
  /** The firecrawl service's answers by the hash of their request (no key in it), in the order they came. */
  service: Record<string, RecordedServiceAnswer[]>;
  /** Documents the engine made of recorded pages (a body each), by the hash of the page, its options and the version converting. */
  documents: Record<string, string>;
}

export function emptyIndex(): FixtureIndex {
  return { format: FIXTURE_FORMAT, requests: {}, modelCalls: {}, searches: {}, browser: {}, service: {}, documents: {} };
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** JSON with object keys sorted at every level, two-space indented, ending with a newline. */
export function sortedJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

const gunzip = promisify(gunzipCallback);

/** A body's name in `bodies/`: its content's hash, and how it is stored. */
export function bodyName(data: Uint8Array): string {
  return `${sha256(data)}${data.byteLength > GZIP_OVER_BYTES ? ".gz" : ".bin"}`;
}

export async function readBody(dir: string, name: string): Promise<Buffer> {
  const path = bodyPath(dir, name);
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (cause) {
    throw lacking(dir, name, cause);
  }
  return name.endsWith(".gz") ? gunzip(data) : data;
}

/**
 * A small body read at once: one read and an inflate take less than the four steps of an
 * asynchronous read, each waiting its turn on the thread pool (a replay reads a document per page).
 */
export function readBodyNow(dir: string, name: string): Buffer {
  const path = bodyPath(dir, name);
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (cause) {
    throw lacking(dir, name, cause);
  }
  return name.endsWith(".gz") ? gunzipSync(data) : data;
}

function bodyPath(dir: string, name: string): string {
  if (!/^[0-9a-f]{64}\.(gz|bin)$/.test(name)) throw new ScrapelineError("invalid-input", `${join(dir, "index.json")}: "${name}" is not a body of this fixture`);
  return join(dir, "bodies", name);
}

function lacking(dir: string, name: string, cause: unknown): ScrapelineError {
  return new ScrapelineError("invalid-input", `the fixture ${dir} lacks ${join("bodies", name)}: record it again`, { cause });
}

/** The bodies an index names. */
export function bodiesOf(index: FixtureIndex): Set<string> {
  const used = new Set<string>(Object.values(index.documents));
  for (const entry of [...Object.values(index.requests), ...Object.values(index.browser)]) if ("body" in entry) used.add(entry.body);
  for (const answers of Object.values(index.service)) for (const answer of answers) used.add(answer.body);
  return used;
}

/** Writes index.json and removes bodies it does not name (left by an earlier recording). */
export function writeIndex(dir: string, index: FixtureIndex): void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "index.json");
  writeFileSync(`${path}.tmp`, sortedJson(index));
  renameSync(`${path}.tmp`, path);
  const used = bodiesOf(index);
  const bodies = join(dir, "bodies");
  if (!existsSync(bodies)) return;
  for (const name of readdirSync(bodies)) if (!used.has(name)) rmSync(join(bodies, name), { force: true });
}
