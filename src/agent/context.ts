import type { AgentMessage } from "../core/index.js";

/** Characters a token holds, roughly. */
const CHARS_PER_TOKEN = 4;
/** The conversation may fill this share of the context; the rest is the answer's. */
const CONVERSATION_SHARE = 0.75;
/** What is kept of a tool result that is shortened. */
const KEPT_CHARS = 400;
export const SHORTENED_NOTE = "[… shortened to keep the conversation within the model's context: call the tool again to read it in full]";

/**
 * Keeps the conversation within the model's context: the oldest tool results (never those of the
 * latest turn) are cut to their first lines until it fits. Returns the ids of the calls whose
 * results were cut (the model may make those calls again). The transcript keeps them whole.
 */
export function fitConversation(messages: AgentMessage[], contextTokens: number | undefined): string[] {
  const limit = Math.floor((contextTokens ?? 32_000) * CHARS_PER_TOKEN * CONVERSATION_SHARE);
  let total = messages.reduce((sum, m) => sum + sizeOf(m), 0);
  let lastAssistant = -1;
  messages.forEach((m, i) => m.role === "assistant" && (lastAssistant = i));
  const cut: string[] = [];
  for (let i = 0; i < lastAssistant && total > limit; i++) {
    const m = messages[i]!;
    if (m.role !== "tool" || m.content.length <= KEPT_CHARS + SHORTENED_NOTE.length || m.content.endsWith(SHORTENED_NOTE)) continue;
    const short = `${m.content.slice(0, KEPT_CHARS)}\n${SHORTENED_NOTE}`;
    total -= m.content.length - short.length;
    messages[i] = { ...m, content: short };
    cut.push(m.toolCallId);
  }
  return cut;
}

function sizeOf(message: AgentMessage): number {
  const calls = message.role === "assistant" && message.toolCalls ? message.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0) : 0;
  return message.content.length + calls;
}

/**
 * Answers the calls of the latest model turn that were never run (the loop stopped first), as a
 * tool-calling API requires every call to have a result before the next turn.
 */
export function answerPending(messages: AgentMessage[], note: string): void {
  let last = -1;
  messages.forEach((m, i) => m.role === "assistant" && (last = i));
  const turn = messages[last];
  if (!turn || turn.role !== "assistant" || !turn.toolCalls?.length) return;
  const answered = new Set(messages.slice(last + 1).flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  for (const call of turn.toolCalls) if (!answered.has(call.id)) messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: note });
}

/** Tokens allowed for a closing answer (the JSON object), on top of what the schema itself takes. */
const CLOSING_ANSWER_TOKENS = 500;

/**
 * The tokens one closing turn will cost, estimated from the conversation as it will be sent (about
 * 4 characters a token) plus a bounded answer: a JSON object about the size of the schema.
 */
export function closingTurnTokens(messages: readonly AgentMessage[], schema: unknown): number {
  const sent = messages.reduce((sum, m) => sum + sizeOf(m), 0);
  const answer = CLOSING_ANSWER_TOKENS + (schema === undefined ? 0 : JSON.stringify(schema).length / CHARS_PER_TOKEN);
  return Math.ceil(sent / CHARS_PER_TOKEN + answer);
}
