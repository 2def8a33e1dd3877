import type { FetchGate } from "../local/index.js";
import type { DocumentTap, EngineTaps, ModelSend, SearchSend } from "../local/index.js";
import { isScrapelineError } from "../../core/index.js";
import type { ServiceSend } from "../firecrawl/index.js";
import { recordContext } from "./browser-traffic.js";
import { documentKey } from "./conversion-key.js";
import { BodyWriter } from "./body-writer.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { JOURNAL_PACK } from "./body-packs.js";
import { bodiesOf, emptyIndex, writeIndex, type FixtureIndex } from "./fixture-files.js";
import { applyLine, IndexJournal, type JournalLine } from "./fixture-index.js";
import { hashKey, keptHeaders, requestKey, safeUrl, serviceKey } from "./request-keys.js";

/**
 * Keeps what the engine was answered in a fixture directory: each response of the fetch gate,
 * each model call and each search, pages loaded in the browser and the firecrawl service's
 * answers. Bodies are written on a thread of their own (once per content, to the journal pack),
 * and each entry is journaled once its body is on disk (a run killed mid-way leaves what it
 * recorded); the shards and index.json are written when the engine closes. Request headers (cookies, authorization) are never written,
 * nor the model's or the service's key.
 */
export class Recorder {
  private readonly index: FixtureIndex = emptyIndex();
  private readonly bodies: BodyWriter;
  /** Bodies being written. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly journal: IndexJournal;

  constructor(private readonly dir: string, model?: { baseUrl: string; model: string }) {
    if (model) this.index.model = { baseUrl: safeUrl(model.baseUrl), model: model.model };
    this.journal = new IndexJournal(dir, this.index);
    this.bodies = new BodyWriter(dir);
  }

  /** Writes a body of the fixture; resolves with its name once it is on disk. */
  body(data: Uint8Array): Promise<string> {
    const writing = this.bodies.write(data);
    this.pending.add(writing);
    void writing.catch(() => undefined).finally(() => this.pending.delete(writing));
    return writing;
  }

  /** Sets an entry of the index and journals it (the bodies it names are on disk already). */
  keep(line: JournalLine): void {
    applyLine(this.index, line);
    this.journal.append(line);
  }

  readonly taps: EngineTaps = {
    gate: (inner) => this.recordingGate(inner),
    model: (send) => this.recordingModel(send),
    search: (send) => this.recordingSearch(send),
    documents: this.documentKeeper(),
    browser: {
      attach: async (context) => recordContext(context, { body: (data) => this.body(data), keep: (key, value) => this.keep({ at: "browser", key, value }) }),
      offline: false,
    },
  };

  /**
   * Waits for the bodies, sorts them into the shards, then writes the index (so it names only
   * bodies in the shards) and removes the journal and its pack. Killed before the end, the
   * journal still names bodies of its pack or of the shards.
   */
  async save(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.bodies.close(bodiesOf(this.index));
    writeIndex(this.dir, this.index);
    this.journal.remove();
    rmSync(join(this.dir, "bodies", JOURNAL_PACK), { force: true });
  }

  private recordingGate(inner: FetchGate): FetchGate {
    return {
      fetch: async (request) => {
        const key = requestKey(request.method ?? "GET", request.url, request.body);
        try {
          const response = await inner.fetch(request);
          // The page is in the fixture before the run uses it: a run killed after storing it can replay it.
          const body = await this.body(response.body);
          this.keep({ at: "requests", key, value: { url: safeUrl(response.url), status: response.status, headers: keptHeaders(response.headers), redirects: response.redirects.map(safeUrl), body } });
          return response;
        } catch (error) {
          // A page answered once is not forgotten for a later failure; a user's stop is not the site's answer.
          const earlier = this.index.requests[key];
          if (isScrapelineError(error) && error.kind !== "cancelled" && (earlier === undefined || "error" in earlier)) {
            this.keep({ at: "requests", key, value: { error: { kind: error.kind, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) } } });
          }
          throw error;
        }
      },
      close: () => inner.close(),
    };
  }

  /** Keeps each document made of a recorded page, unless its URLs hold credentials (they would be written as they are). */
  private documentKeeper(): DocumentTap {
    return {
      find: () => Promise.resolve(undefined),
      keep: (url, settings, document) => {
        const key = requestKey("GET", url);
        const page = this.index.requests[key];
        const finalUrl = document.metadata.url ?? url;
        if (!page || !("body" in page) || safeUrl(url) !== url || safeUrl(finalUrl) !== finalUrl) return;
        const at = documentKey(key, page.body, settings);
        void this.body(Buffer.from(JSON.stringify(document))).then((body) => this.keep({ at: "documents", key: at, value: body }), () => undefined);
      },
    };
  }

  /** The firecrawl engine's traffic: each answer of the service kept in order under its request's key. */
  readonly serviceTap = (send: ServiceSend): ServiceSend => async (request, signal) => {
    const answer = await send(request, signal);
    const body = await this.body(Buffer.from(answer.text, "utf8"));
    this.keep({ at: "service", key: serviceKey(request), value: { status: answer.status, body, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) } });
    return answer;
  };

  private recordingModel(send: ModelSend): ModelSend {
    return async (body, signal) => {
      const answer = await send(body, signal);
      const key = hashKey(body);
      const earlier = this.index.modelCalls[key];
      if (earlier === undefined || earlier.status < 200 || earlier.status >= 300) {
        // The request itself is not kept: its prompt quotes page URLs as fetched, credentials and all.
        this.keep({ at: "modelCalls", key, value: { model: modelOf(body), status: answer.status, text: answer.text, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) } });
      }
      return answer;
    };
  }

  private recordingSearch(send: SearchSend): SearchSend {
    return async (request, signal) => {
      const answer = await send(request, signal);
      this.keep({ at: "searches", key: hashKey(request), value: { query: request.query, answer } });
      return answer;
    };
  }
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === "string" ? model : "";
}
