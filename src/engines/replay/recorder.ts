import type { FetchGate } from "../local/index.js";
import type { DocumentTap, EngineTaps, ModelSend, SearchSend } from "../local/index.js";
import { isScrapelineError } from "../../core/index.js";
import type { ServiceSend } from "../firecrawl/index.js";
import { recordContext } from "./browser-traffic.js";
import { documentKey } from "./conversion-key.js";
import { emptyIndex, writeBody, writeIndex, type FixtureIndex } from "./fixture-files.js";
import { applyLine, IndexJournal, type JournalLine } from "./fixture-index.js";
import { hashKey, keptHeaders, requestKey, safeUrl, serviceKey } from "./request-keys.js";

/**
 * Keeps what the engine was answered in a fixture directory: each response of the fetch gate,
 * each model call and each search. Bodies are written as they come (once per content), and each
 * entry is journaled once its body is on disk (a run killed mid-way leaves what it recorded);
 * index.json is written when the engine closes. Request headers (cookies, authorization) are
 * never written, nor the model's key.
 */
export class Recorder {
  private readonly index: FixtureIndex = emptyIndex();
  /** Bodies being written, by name. */
  private readonly written = new Map<string, Promise<void>>();
  /** Journal lines waiting for their bodies. */
  private readonly journaling = new Set<Promise<void>>();
  private readonly journal: IndexJournal;

  constructor(private readonly dir: string, model?: { baseUrl: string; model: string }) {
    if (model) this.index.model = { baseUrl: safeUrl(model.baseUrl), model: model.model };
    this.journal = new IndexJournal(dir, this.index);
  }

  /** A body of the fixture: its name, written once per content. */
  body(data: Uint8Array): string {
    return writeBody(this.dir, data, this.written);
  }

  /** Sets an entry of the index, journaled once the bodies it names are on disk (the promise settles then). */
  keep(line: JournalLine, bodies: readonly string[] = []): Promise<void> {
    applyLine(this.index, line);
    if (bodies.length === 0) {
      this.journal.append(line);
      return Promise.resolve();
    }
    const done = Promise.all(bodies.map((name) => this.written.get(name))).then(
      () => this.journal.append(line),
      () => undefined,
    );
    this.journaling.add(done);
    void done.finally(() => this.journaling.delete(done));
    return done;
  }

  readonly taps: EngineTaps = {
    gate: (inner) => this.recordingGate(inner),
    model: (send) => this.recordingModel(send),
    search: (send) => this.recordingSearch(send),
    documents: this.documentKeeper(),
    browser: {
      attach: async (context) => recordContext(context, { body: (data) => this.body(data), keep: (key, value, bodies) => this.keep({ at: "browser", key, value }, bodies) }),
      offline: false,
    },
  };

  /** Waits for the bodies, then writes the index (the last thing written, so it names only bodies on disk). */
  async save(): Promise<void> {
    await Promise.all(this.written.values());
    await Promise.all(this.journaling);
    writeIndex(this.dir, this.index);
    this.journal.remove();
  }

  private recordingGate(inner: FetchGate): FetchGate {
    return {
      fetch: async (request) => {
        const key = requestKey(request.method ?? "GET", request.url, request.body);
        try {
          const response = await inner.fetch(request);
          const body = this.body(response.body);
          // The page is in the fixture before the run uses it: a run killed after storing it can replay it.
          await this.keep({ at: "requests", key, value: { url: safeUrl(response.url), status: response.status, headers: keptHeaders(response.headers), redirects: response.redirects.map(safeUrl), body } }, [body]);
          return response;
        } catch (error) {
          // A page answered once is not forgotten for a later failure; a user's stop is not the site's answer.
          const earlier = this.index.requests[key];
          if (isScrapelineError(error) && error.kind !== "cancelled" && (earlier === undefined || "error" in earlier)) {
            void this.keep({ at: "requests", key, value: { error: { kind: error.kind, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) } } });
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
        const body = this.body(Buffer.from(JSON.stringify(document)));
        void this.keep({ at: "documents", key: documentKey(key, page.body, settings), value: body }, [body]);
      },
    };
  }

  /** The firecrawl engine's traffic: each answer of the service kept in order under its request's key. */
  readonly serviceTap = (send: ServiceSend): ServiceSend => async (request, signal) => {
    const answer = await send(request, signal);
    const body = this.body(Buffer.from(answer.text, "utf8"));
    await this.keep({ at: "service", key: serviceKey(request), value: { status: answer.status, body, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) } }, [body]);
    return answer;
  };

  private recordingModel(send: ModelSend): ModelSend {
    return async (body, signal) => {
      const answer = await send(body, signal);
      const key = hashKey(body);
      const earlier = this.index.modelCalls[key];
      if (earlier === undefined || earlier.status < 200 || earlier.status >= 300) {
        // The request itself is not kept: its prompt quotes page URLs as fetched, credentials and all.
        void this.keep({ at: "modelCalls", key, value: { model: modelOf(body), status: answer.status, text: answer.text, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) } });
      }
      return answer;
    };
  }

  private recordingSearch(send: SearchSend): SearchSend {
    return async (request, signal) => {
      const answer = await send(request, signal);
      void this.keep({ at: "searches", key: hashKey(request), value: { query: request.query, answer } });
      return answer;
    };
  }
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === "string" ? model : "";
}
