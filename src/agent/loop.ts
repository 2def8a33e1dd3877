import type { AgentLoopInput, AgentMessage, AgentResult, AgentToolCall, AgentToolName, AgentTranscriptEntry, AgentTurn, ErrorKind } from "../core/index.js";
import { agentTokenCredits, isScrapelineError } from "../core/index.js";
import { readAnswer } from "./answer.js";
import { answerPending, closingTurnTokens, fitConversation } from "./context.js";
import { callKey, readArguments, withinUrls } from "./guard.js";
import { openingMessages, toolSpecs } from "./prompt.js";
import { resumeFrom } from "./resume.js";

/** A call repeated this many times in all ends the loop (the second time it is refused with a warning). */
const LOOP_REPEATS = 3;

/**
 * The agent: asks the model, runs the tools it calls, and feeds their output back until it answers
 * with data that fits the schema (one repair is asked for), or a limit stops it: maxSteps turns,
 * maxCredits (tool credits plus model tokens at 15 a credit, checked before each model turn and
 * each tool call), a call repeated in a loop, or the signal (timeout, cancel). Every model answer
 * and tool call goes to the transcript. Pure: the model and the tools are the caller's.
 */
export async function runAgent(input: AgentLoopInput): Promise<AgentResult> {
  const { request, model, tools, signal } = input;
  const transcript: AgentTranscriptEntry[] = [];
  const record = (entry: AgentTranscriptEntry) => {
    transcript.push(entry);
    input.onEntry?.(entry);
  };
  // An interrupted attempt's transcript: the conversation goes on from it, its spend counted.
  const resumed = input.earlier?.length ? resumeFrom(input.earlier, request) : undefined;
  for (const entry of input.earlier ?? []) transcript.push(entry);
  let tokens = resumed?.tokens ?? 0;
  let toolCredits = resumed?.toolCredits ?? 0;
  const credits = () => toolCredits + agentTokenCredits(tokens);
  /** The pages the agent read, with the text it got of each (sources are checked against them). */
  const read = resumed?.read ?? new Map<string, string>();
  const calls = resumed?.calls ?? new Map<string, number>();
  /** Calls by id, and the calls whose results were shortened to fit the context (they may be made again). */
  const keyOfCall = new Map<string, string>();
  const shortened = new Set<string>();
  const specs = toolSpecs(tools.available, request);
  const offered = new Set(specs.map((s) => s.name));
  const messages: AgentMessage[] = resumed?.messages ?? openingMessages(request);
  let repaired = resumed?.repaired ?? false;
  const end = (status: AgentResult["status"], turn: number, reason?: string, kind?: ErrorKind, data: unknown = null, sources: Record<string, string[]> = {}): AgentResult => {
    if (reason) record({ type: "stopped", turn, reason });
    return { status, data, sources, creditsUsed: credits(), tokensUsed: tokens, ...(reason ? { error: reason } : {}), ...(kind ? { errorKind: kind } : {}), transcript };
  };
  const creditsReached = (turn: number) => closing(turn, `maxCredits reached: ${credits()} of ${request.maxCredits} credit(s) spent`, true);
  /** Credits one closing turn would cost now (the conversation as it stands, and a bounded answer). */
  const closingCost = () => agentTokenCredits(tokens + closingTurnTokens(messages, request.schema)) - agentTokenCredits(tokens);
  /**
   * Whether spending `next` more credits would leave too little for a closing answer that still
   * fits now: then the answer is asked for now, while it can be paid, rather than never.
   */
  const keepsRoomToAnswer = (next: number): boolean => {
    // With nothing read yet there is nothing to answer from: the agent goes on.
    if (read.size === 0) return true;
    const left = request.maxCredits - credits();
    const answer = closingCost();
    return answer > left || next + answer <= left;
  };
  const answerWhileAffordable = (turn: number, what: string) => closing(turn, `maxCredits nearly reached: ${credits()} of ${request.maxCredits} credit(s) spent, and ${what} would leave too little for the closing answer`, true);

  if (resumed?.pending.length) {
    const stopped = await runCalls(resumed.lastTurn, resumed.pending);
    if (stopped) return stopped;
  }
  for (let turn = (resumed?.lastTurn ?? 0) + 1; turn <= request.maxSteps; turn++) {
    if (signal.aborted) return stoppedBySignal(signal, turn, end);
    if (credits() >= request.maxCredits) return creditsReached(turn);
    for (const id of fitConversation(messages, model.contextTokens)) shortened.add(keyOfCall.get(id) ?? "");
    // A turn that may call tools costs about what a closing turn does (the same conversation is sent).
    if (turn > 1 && !keepsRoomToAnswer(closingCost())) return answerWhileAffordable(turn, "another turn with tools");
    let answer: AgentTurn;
    try {
      answer = await model.turn(messages, specs, signal);
    } catch (error) {
      if (isScrapelineError(error, "budget")) return end("partial", turn, (error as Error).message);
      if (signal.aborted) return stoppedBySignal(signal, turn, end);
      return end("failed", turn, `the model did not answer: ${(error as Error).message}`, isScrapelineError(error) ? error.kind : "internal");
    }
    tokens += answer.tokens;
    record({ type: "model", turn, content: answer.content, toolCalls: answer.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })), tokens: answer.tokens });
    messages.push({ role: "assistant", content: answer.content, ...(answer.toolCalls.length ? { toolCalls: answer.toolCalls } : {}) });

    if (answer.toolCalls.length === 0) {
      const reading = readAnswer(answer.content, request.schema, read);
      if (reading.ok) return end("completed", turn, undefined, undefined, reading.data, reading.sources);
      if (repaired) return end("failed", turn, `the answer was rejected after one repair: ${reading.problem}`, "bad-content");
      repaired = true;
      messages.push({ role: "user", content: `Your answer was rejected: ${reading.problem}. Answer again with the corrected JSON object only.` });
      continue;
    }

    const stopped = await runCalls(turn, answer.toolCalls);
    if (stopped) return stopped;
  }
  return closing(request.maxSteps, `maxSteps reached: ${request.maxSteps} turn(s) without a final answer`);

  /** Runs the calls of one model turn, feeding each result back; returns the result when a limit ends the agent. */
  async function runCalls(turn: number, toolCalls: readonly AgentToolCall[]): Promise<AgentResult | undefined> {
    for (const call of toolCalls) {
      const refuse = (reason: string) => {
        record({ type: "refused", turn, name: call.name, arguments: call.arguments, reason });
        messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: `Refused: ${reason}` });
      };
      const parsed = readArguments(call.arguments);
      if (!offered.has(call.name as AgentToolName)) {
        refuse(`there is no tool "${call.name}"; the tools are ${[...offered].join(", ")}`);
        continue;
      }
      if (!parsed.ok) {
        refuse(parsed.problem);
        continue;
      }
      const name = call.name as AgentToolName;
      const key = callKey(name, parsed.args);
      if (shortened.delete(key)) calls.set(key, 0);
      const times = (calls.get(key) ?? 0) + 1;
      calls.set(key, times);
      keyOfCall.set(call.id, key);
      if (times >= LOOP_REPEATS) return closing(turn, `the model repeated the call ${name} ${call.arguments} ${times} times: stopped as a loop`);
      if (times > 1) {
        refuse("you already made this exact call and its result is above; do something else or answer");
        continue;
      }
      const url = typeof parsed.args.url === "string" ? parsed.args.url : undefined;
      if (request.strictConstrainToURLs && request.urls?.length && url !== undefined && !withinUrls(url, request.urls)) {
        refuse(`${url} is outside the allowed URLs (${request.urls.join(", ")}): only those and pages under them may be used`);
        continue;
      }
      const estimate = tools.estimate(name, parsed.args);
      if (credits() + estimate > request.maxCredits) return creditsReached(turn);
      if (!keepsRoomToAnswer(estimate)) return answerWhileAffordable(turn, `the call ${name} (about ${estimate} credit(s))`);
      try {
        const output = await tools.call(name, parsed.args, signal);
        toolCredits += output.credits;
        for (const u of output.urls ?? []) read.set(u, `${read.get(u) ?? ""}\n${output.content}`);
        record({ type: "tool", turn, name, arguments: call.arguments, output: output.content, credits: output.credits, ...(output.urls?.length ? { urls: output.urls } : {}) });
        messages.push({ role: "tool", toolCallId: call.id, name, content: output.content });
      } catch (error) {
        // The run's budget halts the run too (the signal): the agent ends partial, with what it has.
        if (isScrapelineError(error, "budget")) return end("partial", turn, (error as Error).message);
        if (signal.aborted) return stoppedBySignal(signal, turn, end);
        const message = `failed: ${(error as Error).message}`;
        record({ type: "tool", turn, name, arguments: call.arguments, output: message, credits: 0 });
        messages.push({ role: "tool", toolCallId: call.id, name, content: message });
      }
    }
    return undefined;
  }

  /**
   * A stop short of an answer (maxSteps, a loop, maxCredits): while credits remain, the model is
   * asked once, without tools, for the answer from what it has read; the result is partial either
   * way. At maxCredits (`bounded`) the turn is asked for only when its estimated tokens fit in what
   * is left of maxCredits; the stop's reason says whether it was asked for.
   */
  async function closing(turn: number, reason: string, bounded = false): Promise<AgentResult> {
    if (signal.aborted || (!bounded && credits() >= request.maxCredits)) return end("partial", turn, reason);
    const pending = messages.length;
    answerPending(messages, `Not run: ${reason}`);
    messages.push({ role: "user", content: `Stop: ${reason}. Do not call tools. Answer now with the JSON object from what you have read; leave out what you did not find.` });
    fitConversation(messages, model.contextTokens);
    if (bounded) {
      const estimate = closingTurnTokens(messages, request.schema);
      const cost = agentTokenCredits(tokens + estimate) - agentTokenCredits(tokens);
      const left = request.maxCredits - credits();
      if (cost > left) {
        messages.length = pending;
        return end("partial", turn, `${reason}; no closing answer: one turn without tools (about ${estimate} token(s), ${cost} credit(s)) does not fit in the ${Math.max(0, left)} credit(s) left`);
      }
      reason = `${reason}; asked once, without tools, for the answer from what it has read (about ${estimate} token(s), ${cost} credit(s), within the ${left} left)`;
    }
    try {
      const answer = await model.turn(messages, [], signal);
      tokens += answer.tokens;
      record({ type: "model", turn: turn + 1, content: answer.content, toolCalls: answer.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })), tokens: answer.tokens });
      const reading = answer.toolCalls.length ? undefined : readAnswer(answer.content, request.schema, read);
      if (reading?.ok) return end("partial", turn + 1, reason, undefined, reading.data, reading.sources);
      return end("partial", turn + 1, `${reason}; the closing answer was not usable${reading && !reading.ok ? `: ${reading.problem}` : ""}`);
    } catch (error) {
      return end("partial", turn, `${reason}; the closing answer failed: ${(error as Error).message}`);
    }
  }
}

function stoppedBySignal(signal: AbortSignal, turn: number, end: (status: AgentResult["status"], turn: number, reason: string, kind: ErrorKind) => AgentResult): AgentResult {
  const reason = signal.reason;
  const kind: ErrorKind = isScrapelineError(reason) ? reason.kind : reason instanceof Error && reason.name === "TimeoutError" ? "timeout" : "cancelled";
  const text = isScrapelineError(reason) || kind === "timeout" ? (reason as Error).message || "timed out" : "the run was stopped";
  return end("failed", turn, `stopped: ${text}`, kind);
}
