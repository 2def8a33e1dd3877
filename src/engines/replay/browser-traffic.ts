import type { BrowserContext, Request, Route } from "playwright-core";
import type { BrowserTraffic } from "../local/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { RecordedFailure, RecordedResponse } from "./fixture-files.js";
import { keptHeaders, requestKey, safeUrl } from "./request-keys.js";

/** Headers of the body as the browser read it (decoded), which a fulfilled answer must not claim otherwise. */
const TRANSPORT_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]);

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Chromium's own limit of redirects. */
const MAX_HOPS = 20;

function isHttp(url: string): boolean {
  return url.startsWith("http://") || url.startsWith("https://");
}

function browserKey(request: Request): string {
  return requestKey(request.method(), request.url(), request.postData() ?? undefined);
}

/** What recording a context needs of the recorder: bodies by hash, and entries journaled once they are on disk. */
export interface BrowserRecording {
  body(data: Uint8Array): Promise<string>;
  keep(key: string, value: RecordedResponse | RecordedFailure): void;
}

/**
 * Records what a context's pages loaded, as the browser got it: each request (the page, its
 * redirects, every sub-resource) with its status, its headers (no cookies) and its body by hash.
 * Nothing is intercepted, so the page loads as it would unrecorded.
 */
export function recordContext(context: BrowserContext, recording: BrowserRecording): BrowserTraffic {
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  context.on("requestfinished", (request) => {
    if (isHttp(request.url())) track(keepAnswer(request, recording));
  });
  context.on("requestfailed", (request) => {
    if (!isHttp(request.url())) return;
    recording.keep(browserKey(request), { error: { kind: "network", message: `the browser could not load ${safeUrl(request.url())}: ${request.failure()?.errorText ?? "failed"}` } });
  });
  return {
    settled: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
    failure: () => undefined,
  };
}

async function keepAnswer(request: Request, recording: BrowserRecording): Promise<void> {
  const response = await request.response().catch(() => null);
  if (!response) return;
  const status = response.status();
  // A redirect has no body; a body the browser no longer holds is kept empty.
  const data = status >= 300 && status < 400 ? Buffer.alloc(0) : await response.body().catch(() => Buffer.alloc(0));
  const headers = Object.fromEntries(Object.entries(keptHeaders(await response.allHeaders().catch(() => ({})))).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
  if (headers.location) headers.location = safeUrl(new URL(headers.location, request.url()).href);
  const body = await recording.body(data);
  recording.keep(browserKey(request), { url: safeUrl(response.url()), status, headers, redirects: [], body });
}

/** What replaying a context needs of the replayer: the recorded entries, and their bodies. */
export interface BrowserReplaying {
  entry(key: string): RecordedResponse | RecordedFailure | undefined;
  body(name: string): Promise<Buffer>;
  dir: string;
}

/**
 * Answers every request of a context's pages from the fixture: the recorded status, headers and
 * body, a recorded failure as a failed request. A request the fixture does not hold is aborted,
 * and the page fails with `not-recorded` naming the first such URL.
 */
export async function replayContext(context: BrowserContext, replaying: BrowserReplaying): Promise<BrowserTraffic> {
  let missing: ScrapelineError | undefined;
  await context.route("**/*", async (route: Route) => {
    const request = route.request();
    let url = request.url();
    let key = browserKey(request);
    let entry = replaying.entry(key);
    // The browser does not route the requests a fulfilled redirect leads to: the recorded hops are followed here.
    for (let hop = 0; entry && "status" in entry && REDIRECT.has(entry.status) && entry.headers.location && hop < MAX_HOPS; hop++) {
      url = new URL(entry.headers.location, url).href;
      key = requestKey(request.method() === "POST" && entry.status !== 307 && entry.status !== 308 ? "GET" : request.method(), url);
      entry = replaying.entry(key);
    }
    if (!entry) {
      missing ??= new ScrapelineError("not-recorded", `not-recorded: ${key} (loaded in the browser) is not in the fixture ${replaying.dir}`, { url });
      return route.abort("blockedbyclient").catch(() => undefined);
    }
    if ("error" in entry) return route.abort("failed").catch(() => undefined);
    const redirectNavigation = (route as Route & { _redirectNavigationRequest?: (url: string) => Promise<void> })._redirectNavigationRequest;
    if (url !== request.url() && request.isNavigationRequest() && redirectNavigation) {
      // A page that was redirected ends at its recorded URL, as Playwright's own HAR replay does it (the request there is routed again).
      return redirectNavigation.call(route, url).catch(() => undefined);
    }
    await route.fulfill({ status: entry.status, headers: entry.headers, body: await replaying.body(entry.body) }).catch(() => undefined);
  });
  return { settled: () => Promise.resolve(), failure: () => missing };
}
