import type { FetchGate } from "../local/index.js";
import type { EngineTaps, ModelSend, SearchSend } from "../local/index.js";
import { isScrapelineError } from "../../core/index.js";
import { emptyIndex, writeBody, writeIndex, type FixtureIndex } from "./fixture-files.js";
import { hashKey, keptHeaders, requestKey, safeUrl } from "./request-keys.js";

/**
 * Keeps what the engine was answered in a fixture directory: each response of the fetch gate,
 * each model call and each search. Bodies are written as they come (once per content); the
 * index when the engine closes. Request headers (cookies, authorization) are never written,
 * nor the model's key.
 */
export class Recorder {
  private readonly index: FixtureIndex = emptyIndex();
  /** Bodies being written, by name. */
  private readonly written = new Map<string, Promise<void>>();

  constructor(private readonly dir: string, model?: { baseUrl: string; model: string }) {
    if (model) this.index.model = { baseUrl: safeUrl(model.baseUrl), model: model.model };
  }

  readonly taps: EngineTaps = {
    gate: (inner) => this.recordingGate(inner),
    model: (send) => this.recordingModel(send),
    search: (send) => this.recordingSearch(send),
  };

  /** Waits for the bodies, then writes the index (the last thing written, so it names only bodies on disk). */
  async save(): Promise<void> {
    await Promise.all(this.written.values());
    writeIndex(this.dir, this.index);
  }

  private recordingGate(inner: FetchGate): FetchGate {
    return {
      fetch: async (request) => {
        const key = requestKey(request.method ?? "GET", request.url, request.body);
        try {
          const response = await inner.fetch(request);
          this.index.requests[key] = { url: safeUrl(response.url), status: response.status, headers: keptHeaders(response.headers), redirects: response.redirects.map(safeUrl), body: writeBody(this.dir, response.body, this.written) };
          return response;
        } catch (error) {
          // A page answered once is not forgotten for a later failure; a user's stop is not the site's answer.
          const earlier = this.index.requests[key];
          if (isScrapelineError(error) && error.kind !== "cancelled" && (earlier === undefined || "error" in earlier)) {
            this.index.requests[key] = { error: { kind: error.kind, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) } };
          }
          throw error;
        }
      },
      close: () => inner.close(),
    };
  }

  private recordingModel(send: ModelSend): ModelSend {
    return async (body, signal) => {
      const answer = await send(body, signal);
      const key = hashKey(body);
      const earlier = this.index.modelCalls[key];
      if (earlier === undefined || earlier.status < 200 || earlier.status >= 300) {
        // The request itself is not kept: its prompt quotes page URLs as fetched, credentials and all.
        this.index.modelCalls[key] = { model: modelOf(body), status: answer.status, text: answer.text, ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) };
      }
      return answer;
    };
  }

  private recordingSearch(send: SearchSend): SearchSend {
    return async (request, signal) => {
      const answer = await send(request, signal);
      this.index.searches[hashKey(request)] = { query: request.query, answer };
      return answer;
    };
  }
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === "string" ? model : "";
}
