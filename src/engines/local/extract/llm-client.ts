import { parseRetryAfter, ScrapelineError } from "../../../core/index.js";
import type { ModelSend } from "../taps.js";

/** An OpenAI-compatible chat-completions endpoint (the operator's choice: hosted, or a model server on localhost). */
export interface LlmConfig {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; never logged or stored. */
  apiKey?: string;
  /** The model's context window in tokens; pages longer than it are sent in chunks. Default 32000. */
  contextTokens?: number;
  /** Per request. Default 120000. */
  timeoutMs?: number;
  /** Attempts for failed or malformed answers. Default 3. */
  attempts?: number;
}

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

export interface Completion {
  content: string;
  tokens: number;
}

/** How the server takes a JSON Schema for the answer; learned from its first refusal. */
type OutputMode = "json_schema" | "json_object" | "none";

const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const MAX_WAIT_MS = 60_000;

/** Chat completions at temperature 0, with structured output where the server supports it. */
export class LlmClient {
  private mode: OutputMode = "json_schema";
  private readonly send: ModelSend;
  constructor(
    private readonly config: LlmConfig,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    tap?: (send: ModelSend) => ModelSend,
  ) {
    const send: ModelSend = (body, signal) => this.sendToEndpoint(body, signal);
    this.send = tap ? tap(send) : send;
  }

  get outputMode(): OutputMode {
    return this.mode;
  }

  /** One completion; retries throttling and server errors; falls back to plainer output modes when the server refuses one. */
  complete(messages: ChatMessage[], schema: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<Completion> {
    return this.call(messages, schema, false, signal);
  }

  /** A completion in plain text (summaries). */
  completeText(messages: ChatMessage[], signal?: AbortSignal): Promise<Completion> {
    return this.call(messages, undefined, true, signal);
  }

  private async call(messages: ChatMessage[], schema: Record<string, unknown> | undefined, plain: boolean, signal?: AbortSignal): Promise<Completion> {
    const attempts = this.config.attempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      const body: Record<string, unknown> = { model: this.config.model, temperature: 0, messages };
      if (plain) {
        // no response_format: the answer is prose
      } else if (this.mode === "json_schema") body["response_format"] = { type: "json_schema", json_schema: { name: "extraction", schema: schema ?? { type: "object" }, strict: false } };
      else if (this.mode === "json_object") body["response_format"] = { type: "json_object" };
      const answer = await this.post(body, signal);
      if (answer.status === 400 && !plain && this.mode !== "none" && /response_format|json_schema|json_object|structured/i.test(answer.text)) {
        this.mode = this.mode === "json_schema" ? "json_object" : "none";
        attempt--;
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return parseCompletion(answer.text, this.config.baseUrl);
      const retryable = RETRY_STATUSES.has(answer.status);
      if (!retryable || attempt >= attempts) {
        throw new ScrapelineError(answer.status === 429 ? "rate-limited" : "http-status", `the LLM endpoint answered HTTP ${answer.status}: ${snippet(answer.text)}`, { status: answer.status });
      }
      const asked = parseRetryAfter(answer.retryAfter);
      const wait = Math.min(MAX_WAIT_MS, asked ?? 500 * 2 ** (attempt - 1));
      await this.sleep(wait);
    }
  }

  /** One request as given (the agent's tool-calling turns shape their own bodies); throws only when the endpoint cannot be reached in time. */
  post(body: unknown, signal?: AbortSignal): Promise<{ status: number; text: string; retryAfter?: string }> {
    return this.send(body, signal);
  }

  private async sendToEndpoint(body: unknown, signal?: AbortSignal): Promise<{ status: number; text: string; retryAfter?: string }> {
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const timeoutMs = this.config.timeoutMs ?? 120_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.config.apiKey) headers["authorization"] = `Bearer ${this.config.apiKey}`;
    try {
      // Loaded with the first call: undici's index is large, and most commands never make this one.
      const { request } = await import("undici");
      const response = await request(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await response.body.text();
      const retryAfter = response.headers["retry-after"];
      return { status: response.statusCode, text, ...(typeof retryAfter === "string" ? { retryAfter } : {}) };
    } catch (error) {
      if (signal?.aborted) throw new ScrapelineError("cancelled", "the extraction was cancelled");
      // undici's own header and body timers run out at the same moment as the deadline, sometimes first.
      const code = (error as { code?: unknown }).code;
      if (deadline.aborted || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") throw new ScrapelineError("timeout", `the LLM endpoint ${origin(url)} did not answer within ${timeoutMs} ms`);
      throw new ScrapelineError("network", `cannot reach the LLM endpoint ${origin(url)}: ${(error as Error).message}`, { cause: error });
    }
  }
}

function parseCompletion(text: string, baseUrl: string): Completion {
  let body: { choices?: Array<{ message?: { content?: unknown } }>; usage?: { total_tokens?: number; prompt_tokens?: number; completion_tokens?: number } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ScrapelineError("bad-content", `the LLM endpoint ${origin(baseUrl)} did not answer with JSON: ${snippet(text)}`);
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new ScrapelineError("bad-content", `the LLM endpoint ${origin(baseUrl)} answered without a message`);
  const usage = body.usage ?? {};
  const tokens = usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  return { content, tokens: Number.isFinite(tokens) ? tokens : 0 };
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || "(empty body)";
}
