import type { AgentMessage, AgentRequest, AgentToolCall, AgentTranscriptEntry } from "../core/index.js";
import { readAnswer } from "./answer.js";
import { callKey, readArguments } from "./guard.js";
import { openingMessages } from "./prompt.js";

/** Where an interrupted agent stood: the conversation rebuilt from its transcript, and its counts. */
export interface ResumedState {
  messages: AgentMessage[];
  tokens: number;
  toolCredits: number;
  /** Pages read, with the text the agent got of each. */
  read: Map<string, string>;
  /** Each call made, by key, with how many times. */
  calls: Map<string, number>;
  /** Whether the one repair of a rejected answer was asked for. */
  repaired: boolean;
  /** The last model turn of the transcript (0 when there was none). */
  lastTurn: number;
  /** Calls of that turn that never got a result (the run stopped first): they are made now. */
  pending: AgentToolCall[];
}

/**
 * The conversation as the model last saw it, rebuilt from the transcript of an interrupted attempt:
 * each model answer with its calls, each call's result (or refusal) as it was given, and the repair
 * asked for after a rejected answer. The earlier stop is left out. Calls get fresh ids (the
 * transcript keeps none); their results follow them in order, as they were recorded.
 */
export function resumeFrom(earlier: readonly AgentTranscriptEntry[], request: AgentRequest): ResumedState {
  const state: ResumedState = { messages: openingMessages(request), tokens: 0, toolCredits: 0, read: new Map(), calls: new Map(), repaired: false, lastTurn: 0, pending: [] };
  let open: AgentToolCall[] = [];
  for (const entry of earlier) {
    if (entry.type === "model") {
      state.tokens += entry.tokens;
      state.lastTurn = entry.turn;
      open = entry.toolCalls.map((c, i) => ({ id: `resumed_${entry.turn}_${i + 1}`, name: c.name, arguments: c.arguments }));
      state.messages.push({ role: "assistant", content: entry.content, ...(open.length ? { toolCalls: [...open] } : {}) });
      // An answer without calls that did not end the agent was rejected: the repair was asked for.
      const reading = open.length === 0 ? readAnswer(entry.content, request.schema, state.read) : undefined;
      if (reading && !reading.ok) {
        state.repaired = true;
        state.messages.push({ role: "user", content: `Your answer was rejected: ${reading.problem}. Answer again with the corrected JSON object only.` });
      }
    } else if (entry.type === "tool" || entry.type === "refused") {
      const index = open.findIndex((c) => c.name === entry.name && c.arguments === entry.arguments);
      if (index < 0) continue;
      const [call] = open.splice(index, 1);
      const content = entry.type === "tool" ? entry.output : `Refused: ${entry.reason}`;
      state.messages.push({ role: "tool", toolCallId: call!.id, name: call!.name, content });
      const parsed = readArguments(call!.arguments);
      if (parsed.ok) state.calls.set(callKey(call!.name, parsed.args), (state.calls.get(callKey(call!.name, parsed.args)) ?? 0) + 1);
      if (entry.type === "tool") {
        state.toolCredits += entry.credits;
        for (const u of entry.urls ?? []) state.read.set(u, `${state.read.get(u) ?? ""}\n${entry.output}`);
      }
    }
  }
  state.pending = open;
  return state;
}
