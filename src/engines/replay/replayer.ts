import type { ConversionSettings, EngineTaps, FetchGate } from "../local/index.js";
import { ScrapelineError, type Document, type ErrorKind, type SearchAnswer } from "../../core/index.js";
import { replayContext } from "./browser-traffic.js";
import { documentKey } from "./conversion-key.js";
import { FixtureBodies, type FixtureIndex } from "./fixture-files.js";
import { readIndex } from "./fixture-index.js";
import type { ServiceSend } from "../firecrawl/index.js";
import { describeServiceRequest, hashKey, requestKey, safeUrl, serviceKey } from "./request-keys.js";

/**
 * Answers the engine's requests from a fixture directory and never opens a socket: a request
 * the fixture does not hold fails with `not-recorded`, naming it. A page asked with the settings
 * it was recorded with is given back as the document the recording made of it, unless
 * `convertAgain` (what `scrapeline test` asks: the conversion itself is under test).
 */
export class Replayer {
  private readonly index: FixtureIndex;
  /** How many answers of each service request were given: the next is the following one (the last stays). */
  private readonly served = new Map<string, number>();
  private readonly bodies: FixtureBodies;

  constructor(private readonly dir: string, private readonly options: { convertAgain?: boolean } = {}) {
    this.index = readIndex(dir);
    this.bodies = new FixtureBodies(dir);
    this.taps = this.replayingTaps();
  }

  /** The model the recording used (its key was never kept). */
  get model(): { baseUrl: string; model: string } | undefined {
    return this.index.model;
  }

  readonly taps: EngineTaps;

  /** Closes the fixture's packs (once the engine is closed). */
  close(): void {
    this.bodies.close();
  }

  private replayingTaps(): EngineTaps {
    return {
      gate: (inner) => this.replayingGate(inner),
      model: () => async (body, signal) => {
        signal?.throwIfAborted();
        const call = this.index.modelCalls[hashKey(body)];
        if (!call) throw new ScrapelineError("not-recorded", `not-recorded: a model request (${describeModelRequest(body)}) is not in the fixture ${this.dir}`);
        return { status: call.status, text: call.text, ...(call.retryAfter !== undefined ? { retryAfter: call.retryAfter } : {}) };
      },
      search: () => async (request, signal) => {
        signal?.throwIfAborted();
        const search = this.index.searches[hashKey(request)];
        if (!search) throw new ScrapelineError("not-recorded", `not-recorded: the search ${JSON.stringify(request.query)} (with these options) is not in the fixture ${this.dir}`);
        return structuredClone(search.answer) as SearchAnswer;
      },
      searches: true,
      ...(this.options.convertAgain ? {} : { documents: { find: (url, settings, signal) => this.recordedDocument(url, settings, signal), keep: () => undefined } }),
      browser: {
        attach: (context) => replayContext(context, { entry: (key) => this.index.browser[key], body: (name) => Promise.resolve(this.bodies.read(name)), dir: this.dir }),
        offline: true,
      },
      refuseBrowser: (url) => new ScrapelineError("not-recorded", `not-recorded: ${url} needs a browser session of its own (a login or a live page), which a replay does not answer`, { url }),
    };
  }

  /** The firecrawl engine's traffic answered in the order recorded (a job's status as it went), with no key and no socket. */
  readonly serviceTap = (): ServiceSend => async (request, signal) => {
    signal.throwIfAborted();
    const key = serviceKey(request);
    const answers = this.index.service[key];
    if (!answers?.length) throw new ScrapelineError("not-recorded", `not-recorded: the service's answer to ${describeServiceRequest(request, key)} is not in the fixture ${this.dir}`);
    const n = this.served.get(key) ?? 0;
    this.served.set(key, n + 1);
    const answer = answers[Math.min(n, answers.length - 1)]!;
    return { status: answer.status, text: this.bodies.read(answer.body).toString("utf8"), ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}) };
  };

  private async recordedDocument(url: string, settings: ConversionSettings, signal?: AbortSignal): Promise<Document | undefined> {
    signal?.throwIfAborted();
    const key = requestKey("GET", url);
    const page = this.index.requests[key];
    if (!page || !("body" in page)) return undefined;
    const name = this.index.documents[documentKey(key, page.body, settings)];
    return name === undefined ? undefined : (JSON.parse(this.bodies.read(name).toString("utf8")) as Document);
  }

  private replayingGate(inner: FetchGate): FetchGate {
    return {
      fetch: async (request) => {
        request.signal?.throwIfAborted();
        const key = requestKey(request.method ?? "GET", request.url, request.body);
        const entry = this.index.requests[key];
        if (!entry) throw new ScrapelineError("not-recorded", `not-recorded: ${key} is not in the fixture ${this.dir}`, { url: request.url });
        if ("error" in entry) throw new ScrapelineError(entry.error.kind as ErrorKind, entry.error.message, { url: request.url, ...(entry.error.status !== undefined ? { status: entry.error.status } : {}) });
        // Credentials were taken out of the recorded URLs: where the page ended where it was asked, it is the URL asked.
        const asked = (url: string) => (url === safeUrl(request.url) ? request.url : url);
        return { url: asked(entry.url), status: entry.status, headers: { ...entry.headers }, redirects: entry.redirects.map(asked), body: this.bodies.read(entry.body) };
      },
      // The real gate was never used: closing it frees nothing but keeps its contract.
      close: () => inner.close(),
    };
  }
}

function describeModelRequest(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return `model ${typeof model === "string" ? model : "?"}, hash ${hashKey(body).slice(0, 12)}`;
}
