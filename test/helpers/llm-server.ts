import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat-completions request as the fake model server received it. */
export interface SeenRequest {
  path: string;
  authorization?: string;
  body: {
    model: string;
    temperature: number;
    messages: Array<{ role: string; content: string; tool_call_id?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }>;
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    tools?: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
  };
}

/** What the server answers next: a completion, or a raw status (429, 500, 400…), or silence. */
export type Scripted =
  | { content: string; tokens?: number }
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  /** An assistant message asking for tool calls (the tool-calling API); `arguments` is sent as JSON text. */
  | { toolCalls: Array<{ name: string; arguments: unknown }>; content?: string; tokens?: number };

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script and keeps
 * every request, so a test can check what was sent (model, messages, response_format). When the
 * script runs out it answers with `fallback` (a function of the request), if given.
 */
export class FakeLlm {
  readonly requests: SeenRequest[] = [];
  private readonly script: Scripted[] = [];
  fallback: ((request: SeenRequest) => Scripted) | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<import("node:net").Socket>();
  /** Called at each request received (see `nextRequest`). */
  private readonly listeners = new Set<() => void>();
  url = "";

  /** Resolves once more than `seen` requests have been received (at once if they have). */
  nextRequest(seen: number): Promise<SeenRequest> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests.length <= seen) return;
        this.listeners.delete(check);
        resolve(this.requests[seen]!);
      };
      this.listeners.add(check);
      check();
    });
  }

  answer(...items: Scripted[]): this {
    this.script.push(...items);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const seen: SeenRequest = { path: req.url ?? "", body: JSON.parse(raw), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
        this.requests.push(seen);
        for (const listener of [...this.listeners]) listener();
        const next = this.script.shift() ?? this.fallback?.(seen) ?? { status: 500, body: '{"error":"script ran out"}' };
        if ("hang" in next) return;
        if ("status" in next) {
          res.writeHead(next.status, { "content-type": "application/json", ...(next.headers ?? {}) }).end(next.body ?? "{}");
          return;
        }
        const tokens = next.tokens ?? 100;
        const prompt = Math.floor(tokens * 0.8);
        if ("toolCalls" in next) {
          const calls = next.toolCalls.map((c, i) => ({ id: `call_${this.requests.length}_${i}`, type: "function", function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) } }));
          res.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({ id: "cmpl-1", object: "chat.completion", model: seen.body.model, choices: [{ index: 0, message: { role: "assistant", content: next.content ?? null, tool_calls: calls }, finish_reason: "tool_calls" }], usage: { prompt_tokens: prompt, completion_tokens: tokens - prompt, total_tokens: tokens } }),
          );
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({ id: "cmpl-1", object: "chat.completion", model: seen.body.model, choices: [{ index: 0, message: { role: "assistant", content: next.content }, finish_reason: "stop" }], usage: { prompt_tokens: prompt, completion_tokens: tokens - prompt, total_tokens: tokens } }),
        );
      });
    });
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
