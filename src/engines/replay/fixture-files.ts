import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ScrapelineError } from "../../core/index.js";
import { PackReader } from "./body-packs.js";

/** The format a recording writes: 2, bodies packed by hash (body-packs.ts). Format 1 (a file per body) still replays. */
export const FIXTURE_FORMAT = 2;
export const READABLE_FORMATS: readonly number[] = [1, 2];

/** A response of the fetch gate as recorded: the body is named by its content's hash. */
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

/** One answer of the firecrawl service: its body is named by its content's hash. */
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

/** A body of a fixture of format 1: a file of its own, `bodies/<sha256>.gz` (gzipped) or `.bin`. */
const FILE_BODY = /^[0-9a-f]{64}\.(gz|bin)$/;
/** A body of format 2: its hash, found in the packs. */
const PACKED_BODY = /^[0-9a-f]{64}$/;

/**
 * The bodies of a fixture, by the names its index gives them: packed ones (format 2, see
 * body-packs.ts) and the files of a fixture recorded in format 1, which replays as it did.
 */
export class FixtureBodies {
  private readonly packs: PackReader;

  constructor(private readonly dir: string) {
    this.packs = new PackReader(dir);
  }

  read(name: string): Buffer {
    if (PACKED_BODY.test(name)) {
      const body = this.packs.read(name);
      if (body === undefined) throw lacking(this.dir, `the body ${name}`);
      return body;
    }
    if (!FILE_BODY.test(name)) throw new ScrapelineError("invalid-input", `${join(this.dir, "index.json")}: "${name}" is not a body of this fixture`);
    let data: Buffer;
    try {
      data = readFileSync(join(this.dir, "bodies", name));
    } catch (cause) {
      throw lacking(this.dir, join("bodies", name), cause);
    }
    return name.endsWith(".gz") ? gunzipSync(data) : data;
  }

  close(): void {
    this.packs.close();
  }
}

function lacking(dir: string, what: string, cause?: unknown): ScrapelineError {
  return new ScrapelineError("invalid-input", `the fixture ${dir} lacks ${what}: record it again`, cause === undefined ? {} : { cause });
}

/** The bodies an index names. */
export function bodiesOf(index: FixtureIndex): Set<string> {
  const used = new Set<string>(Object.values(index.documents));
  for (const entry of [...Object.values(index.requests), ...Object.values(index.browser)]) if ("body" in entry) used.add(entry.body);
  for (const answers of Object.values(index.service)) for (const answer of answers) used.add(answer.body);
  return used;
}

/** Writes index.json (the bodies it names are in the shards already). */
export function writeIndex(dir: string, index: FixtureIndex): void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "index.json");
  writeFileSync(`${path}.tmp`, sortedJson(index));
  renameSync(`${path}.tmp`, path);
}
