import type { AgentMessage, AgentModel, AgentToolCall, AgentToolSpec, AgentTurn } from "../../../core/index.js";
import { parseRetryAfter, ScrapelineError } from "../../../core/index.js";
import type { LlmClient, LlmConfig } from "./llm-client.js";
import { parseJson } from "../../../core/index.js";

const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/**
 * The agent's model on an OpenAI-compatible server: the tool-calling API (`tools`, `tool_calls`),
 * and for servers that refuse tools, a JSON protocol in plain messages (the tools described in the
 * system message, a call answered as `{"tool": name, "arguments": {…}}`). Learned from the first refusal.
 */
export class ToolCallingModel implements AgentModel {
  private mode: "tools" | "json" = "tools";
  private calls = 0;

  constructor(
    private readonly client: LlmClient,
    private readonly config: LlmConfig,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  get contextTokens(): number {
    return this.config.contextTokens ?? 32_000;
  }

  get protocol(): "tools" | "json" {
    return this.mode;
  }

  async turn(messages: readonly AgentMessage[], tools: readonly AgentToolSpec[], signal?: AbortSignal): Promise<AgentTurn> {
    const attempts = this.config.attempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      const body = this.mode === "tools" ? this.toolsBody(messages, tools) : this.jsonBody(messages, tools);
      const answer = await this.client.post(body, signal);
      if (answer.status === 400 && this.mode === "tools" && /tool|function/i.test(answer.text)) {
        this.mode = "json";
        attempt--;
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return this.read(answer.text);
      if (!RETRY_STATUSES.has(answer.status) || attempt >= attempts) {
        throw new ScrapelineError(answer.status === 429 ? "rate-limited" : "http-status", `the LLM endpoint answered HTTP ${answer.status}: ${answer.text.replace(/\s+/g, " ").slice(0, 200) || "(empty body)"}`, { status: answer.status });
      }
      await this.sleep(Math.min(60_000, parseRetryAfter(answer.retryAfter) ?? 500 * 2 ** (attempt - 1)));
    }
  }

  private toolsBody(messages: readonly AgentMessage[], tools: readonly AgentToolSpec[]): Record<string, unknown> {
    const wire = messages.map((m) => {
      if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
      if (m.role === "assistant" && m.toolCalls?.length) {
        return { role: "assistant", content: m.content || null, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) };
      }
      return { role: m.role, content: m.content };
    });
    if (tools.length === 0) return { model: this.config.model, temperature: 0, messages: wire };
    return { model: this.config.model, temperature: 0, messages: wire, tools: tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })), tool_choice: "auto" };
  }

  private jsonBody(messages: readonly AgentMessage[], tools: readonly AgentToolSpec[]): Record<string, unknown> {
    const described = tools.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify(t.parameters)}`).join("\n");
    const protocol = `To call a tool, answer with JSON only: {"tool": "<name>", "arguments": {…}}, one call per answer. The tools:\n${described}`;
    const wire = messages.map((m, index) => {
      if (m.role === "system" && index === 0) return { role: "system", content: tools.length ? `${m.content}\n${protocol}` : m.content };
      if (m.role === "tool") return { role: "user", content: `Result of ${m.name}:\n${m.content}` };
      if (m.role === "assistant" && m.toolCalls?.length) return { role: "assistant", content: m.toolCalls.map((c) => JSON.stringify({ tool: c.name, arguments: safeJson(c.arguments) })).join("\n") };
      return { role: m.role, content: m.content };
    });
    return { model: this.config.model, temperature: 0, messages: wire };
  }

  private read(text: string): AgentTurn {
    let body: { choices?: Array<{ message?: { content?: unknown; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }> } }>; usage?: { total_tokens?: number; prompt_tokens?: number; completion_tokens?: number } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new ScrapelineError("bad-content", `the LLM endpoint did not answer with JSON: ${text.slice(0, 200)}`);
    }
    const message = body.choices?.[0]?.message;
    if (!message) throw new ScrapelineError("bad-content", "the LLM endpoint answered without a message");
    const usage = body.usage ?? {};
    const counted = usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
    const tokens = Number.isFinite(counted) ? counted : 0;
    const content = typeof message.content === "string" ? message.content : "";
    const toolCalls: AgentToolCall[] = (message.tool_calls ?? []).map((c) => ({
      id: c.id ?? `call-${++this.calls}`,
      name: c.function?.name ?? "",
      arguments: typeof c.function?.arguments === "string" ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {}),
    }));
    if (this.mode === "json" && toolCalls.length === 0) {
      const parsed = parseJson(content);
      const value = parsed.ok ? parsed.value : undefined;
      if (typeof value === "object" && value !== null && typeof (value as { tool?: unknown }).tool === "string") {
        const call = value as { tool: string; arguments?: unknown };
        return { content: "", toolCalls: [{ id: `call-${++this.calls}`, name: call.tool, arguments: JSON.stringify(call.arguments ?? {}) }], tokens };
      }
    }
    return { content, toolCalls, tokens };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
