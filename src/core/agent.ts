import type { ErrorKind } from "./errors.js";
import type { AgentRequest, JsonSchema } from "./types.js";

export type { AgentRequest };

/** A tool the model may call, in the function-calling shape (name, description, JSON Schema of its arguments). */
export interface AgentToolSpec {
  name: AgentToolName;
  description: string;
  parameters: JsonSchema;
}

export type AgentToolName = "search" | "map" | "scrape" | "extract";

/** One call the model asked for; `arguments` is the raw JSON text it sent. */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The conversation as sent to the model, in the chat-completions shape. */
export type AgentMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: AgentToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** What the model answered on one turn: tool calls, or text (the final answer), and the tokens the turn cost. */
export interface AgentTurn {
  content: string;
  toolCalls: AgentToolCall[];
  tokens: number;
}

/** The model port: one turn of a tool-using conversation (a tool-calling API, or JSON for servers without tools). */
export interface AgentModel {
  /** The model's context window in tokens, when known: pages and the conversation are kept within it. */
  readonly contextTokens?: number;
  turn(messages: readonly AgentMessage[], tools: readonly AgentToolSpec[], signal?: AbortSignal): Promise<AgentTurn>;
}

/** What a tool call gave: text for the model, what it cost, and the pages it read (for sources). */
export interface AgentToolOutput {
  content: string;
  credits: number;
  urls?: string[];
}

/** The tools, run by the caller (the runner: through the run's engine, pool, budget and fetch gate). */
export interface AgentTools {
  readonly available: readonly AgentToolName[];
  /** Credits a call may cost at most, reserved before it starts. */
  estimate(name: AgentToolName, args: Record<string, unknown>): number;
  call(name: AgentToolName, args: Record<string, unknown>, signal: AbortSignal): Promise<AgentToolOutput>;
}

/** One line of an agent's transcript: every model answer and tool call, in order. */
export type AgentTranscriptEntry =
  | { type: "model"; turn: number; content: string; toolCalls: Array<{ name: string; arguments: string }>; tokens: number }
  | { type: "tool"; turn: number; name: string; arguments: string; output: string; credits: number; urls?: string[] }
  | { type: "refused"; turn: number; name: string; arguments: string; reason: string }
  | { type: "stopped"; turn: number; reason: string };

export type AgentStatus = "completed" | "partial" | "failed";

/** An agent's outcome (also the step's stored result): the data, per-field sources, cost and transcript. */
export interface AgentResult {
  status: AgentStatus;
  data: unknown;
  /** Per top-level field of `data`, the URLs it was read from. */
  sources: Record<string, string[]>;
  creditsUsed: number;
  tokensUsed: number;
  /** Why it stopped short (partial) or failed. */
  error?: string;
  /** The class of a failure (a model that never answered: timeout). */
  errorKind?: ErrorKind;
  transcript: AgentTranscriptEntry[];
}

/** What the loop needs: the request, the model, the tools, and when to give up. */
export interface AgentLoopInput {
  request: AgentRequest;
  model: AgentModel;
  tools: AgentTools;
  /** Aborts the loop: a step timeout or a cancelled run; the loop ends with what it has. */
  signal: AbortSignal;
  /** Told of each transcript entry as it is made (progress, storage). */
  onEntry?: (entry: AgentTranscriptEntry) => void;
  /** The transcript of an interrupted attempt (`run --resume`): the conversation goes on from it. */
  earlier?: AgentTranscriptEntry[];
}

/** The loop itself (src/agent), handed to the runner by the app. */
export type AgentLoop = (input: AgentLoopInput) => Promise<AgentResult>;

/** Credits of model tokens: 15 tokens a credit (SPEC.md Limits). */
export function agentTokenCredits(tokens: number): number {
  return Math.ceil(tokens / 15);
}
