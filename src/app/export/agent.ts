import type { AgentResult } from "../../core/index.js";

/** Whether a step's stored result is an agent's (it carries a transcript). */
export function isAgentResult(result: unknown): result is AgentResult {
  return typeof result === "object" && result !== null && Array.isArray((result as { transcript?: unknown }).transcript) && typeof (result as { status?: unknown }).status === "string";
}

/** Rows of an agent's result for jsonl and csv: its transcript, one entry (model answer, tool call, refusal, stop) per row. */
export function agentRows(result: AgentResult): Array<Record<string, unknown>> {
  return result.transcript.map((entry) => (entry.type === "model" ? { ...entry, toolCalls: entry.toolCalls.map((c) => `${c.name} ${c.arguments}`).join("; ") } : { ...entry }));
}
