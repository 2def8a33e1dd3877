import { randomUUID } from "node:crypto";
import { ScrapelineError, type OnEngineWait } from "../../core/index.js";
import { serviceError } from "./errors.js";

/** Where the service is and the key it takes. The key is used in the Authorization header and nowhere else. */
export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
  /** Per request. Default 60000. */
  timeoutMs?: number;
  /** For tests: waits between polls and retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where the service's traffic is taken over: recorded, or answered from a fixture (src/engines/replay). */
  tap?: (send: ServiceSend) => ServiceSend;
}

/** One request to the service as it is sent; `headers` carry the key, which a recording leaves out. */
export interface ServiceRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
}

/** The service's answer to one request, before it is read as JSON. */
export interface ServiceAnswer {
  status: number;
  text: string;
  retryAfter?: string;
}

export type ServiceSend = (request: ServiceRequest, signal: AbortSignal) => Promise<ServiceAnswer>;

export interface CallOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Sent as x-idempotency-key; the same key is sent again when the call is retried. */
  idempotencyKey?: string;
  /** Attempts for 408/429/5xx and network errors. Default 1 (the caller retries). */
  attempts?: number;
  /** What the call is, for messages ("the crawl job 1234"). */
  what: string;
  /** Told before each wait between attempts longer than REPORTED_WAIT_MS. */
  onWait?: OnEngineWait;
  /** This request's own time limit when longer than the configured one (an upload the service converts within its `timeout`). */
  minTimeoutMs?: number;
  /** Sent as the body instead of JSON (a multipart upload), with its content type. */
  upload?: { contentType: string; bytes: Uint8Array };
}

/** Waits between attempts longer than this are reported through `onWait`. */
export const REPORTED_WAIT_MS = 2000;
/** The longest wait between two attempts, whatever Retry-After asks. */
const MAX_WAIT_MS = 60_000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Refuses a plain-http base URL off this machine: the key would cross the network in clear. */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ScrapelineError("invalid-input", `the service's base URL ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.startsWith("127."))) return url;
  throw new ScrapelineError("invalid-input", `refusing to send the API key to ${url.origin} over plain http: use https (plain http is allowed only for localhost)`);
}

export const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ScrapelineError("cancelled", "cancelled"));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new ScrapelineError("cancelled", "cancelled"))), { once: true });
  });

/** JSON over HTTP with the service: bearer auth, typed errors, bounded retries for transient failures. */
export class ServiceHttp {
  readonly base: URL;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly send: ServiceSend;

  constructor(private readonly config: ServiceConfig) {
    this.base = checkBaseUrl(config.baseUrl);
    this.sleep = config.sleep ?? defaultSleep;
    this.send = config.tap ? config.tap(sendOverHttp) : sendOverHttp;
  }

  /** A path of the service, or an absolute URL it gave (a `next` page) that must be on the same origin. */
  resolve(pathOrUrl: string): URL {
    const url = new URL(pathOrUrl, this.base);
    if (url.origin !== this.base.origin) {
      throw new ScrapelineError("bad-content", `the service pointed at ${url.origin}, which is not ${this.base.origin}: refused, the API key is sent only to the configured service`);
    }
    return url;
  }

  async call<T>(method: "GET" | "POST" | "DELETE", pathOrUrl: string, options: CallOptions): Promise<T> {
    const url = this.resolve(pathOrUrl);
    const attempts = options.attempts ?? 1;
    const key = options.idempotencyKey ?? (method === "POST" && attempts > 1 ? randomUUID() : undefined);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, url, options, key);
      } catch (error) {
        const transient = error instanceof ScrapelineError && (error.kind === "network" || error.kind === "timeout" || error.kind === "rate-limited" || (error.kind === "http-status" && (error.status ?? 0) >= 500));
        if (!transient || attempt >= attempts || options.signal?.aborted) throw error;
        const wait = Math.min(error.retryAfterMs ?? Math.min(30_000, 500 * 2 ** (attempt - 1)), MAX_WAIT_MS);
        if (wait > REPORTED_WAIT_MS) options.onWait?.({ reason: error.message, waitMs: wait });
        await this.sleep(wait, options.signal);
      }
    }
  }

  private async once<T>(method: string, url: URL, options: CallOptions, idempotencyKey: string | undefined): Promise<T> {
    const timeoutMs = Math.max(this.config.timeoutMs ?? 60_000, options.minTimeoutMs ?? 0);
    const deadline = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { authorization: `Bearer ${this.config.apiKey}`, accept: "application/json" };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.upload) headers["content-type"] = options.upload.contentType;
    if (idempotencyKey) headers["x-idempotency-key"] = idempotencyKey;
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    const body = options.upload ? options.upload.bytes : options.body !== undefined ? JSON.stringify(options.body) : undefined;
    let answer: ServiceAnswer;
    try {
      answer = await this.send({ method, url, headers, ...(body !== undefined ? { body } : {}), timeoutMs }, signal);
    } catch (error) {
      if (options.signal?.aborted) throw new ScrapelineError("cancelled", `${options.what} was cancelled`);
      if (deadline.aborted) throw new ScrapelineError("timeout", `the service did not answer ${options.what} within ${timeoutMs} ms`);
      // A replay's own refusal (not-recorded) is told as it is.
      if (error instanceof ScrapelineError) throw error;
      const code = (error as { code?: string }).code;
      throw new ScrapelineError("network", `cannot reach the service at ${this.base.origin} for ${options.what}: ${code ?? (error as Error).message}`);
    }
    const { status, text, retryAfter } = answer;
    const parsed = parseBody(text);
    const value = parsed.ok ? parsed.value : undefined;
    const message = typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string" ? (value as { error: string }).error : "";
    if (status < 200 || status >= 300) throw serviceError(status, message || (parsed.ok ? "" : describeNonJson(text)), { what: options.what, ...(retryAfter ? { retryAfter } : {}) });
    if (!parsed.ok) {
      throw new ScrapelineError("network", `the service's answer to ${options.what} is not JSON (${describeNonJson(text)})`, { status });
    }
    return value as T;
  }
}

/** A request to the service over HTTP. */
async function sendOverHttp(request: ServiceRequest, signal: AbortSignal): Promise<ServiceAnswer> {
  // Loaded with the first call: undici's index is large, and most commands never make this one.
  const { request: undiciRequest } = await import("undici");
  const response = await undiciRequest(request.url, {
    method: request.method as "GET",
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal,
    headersTimeout: request.timeoutMs,
    bodyTimeout: request.timeoutMs,
  });
  const header = response.headers["retry-after"];
  return { status: response.statusCode, text: await response.body.text(), ...(typeof header === "string" ? { retryAfter: header } : {}) };
}

function parseBody(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function describeNonJson(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "an empty body";
  if (trimmed.startsWith("<")) return "an HTML page";
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return "JSON cut short";
  return `text starting ${JSON.stringify(trimmed.slice(0, 40))}`;
}
