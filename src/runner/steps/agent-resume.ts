import type { AgentResult, AgentTranscriptEntry } from "../../core/index.js";
import { agentTokenCredits } from "../../core/index.js";
import type { RunContext } from "../context.js";

/** What an interrupted agent left for `run --resume`: its transcript, and the model tokens already billed. */
export interface AgentEarlier {
  transcript: AgentTranscriptEntry[];
  tokensBilled: number;
  /** Pages the step stored before: the agent's scrape reads them back instead of fetching them again. */
  storedUrls: Set<string>;
}

/**
 * The transcript of this step's earlier attempt in this run, when it was interrupted (Ctrl-C, a
 * killed process: its result says `cancelled`); a step that failed for another reason starts over.
 */
export function interruptedAgent(ctx: RunContext, stepId: string): AgentEarlier | undefined {
  const { store } = ctx.ports;
  const raw = store.stepResult(ctx.runId, stepId);
  if (raw === undefined) return undefined;
  let result: Partial<AgentResult>;
  try {
    result = JSON.parse(raw) as Partial<AgentResult>;
  } catch {
    return undefined;
  }
  if (result.errorKind !== "cancelled" || !Array.isArray(result.transcript) || result.transcript.length === 0) return undefined;
  // The earlier stop stays in the transcript (the conversation leaves it out).
  return { transcript: result.transcript, tokensBilled: billedTokens(ctx, stepId), storedUrls: store.storedUrls(ctx.runId, stepId) };
}

/** The model tokens of this step already in the ledger (the step's state keeps the count). */
function billedTokens(ctx: RunContext, stepId: string): number {
  const raw = ctx.ports.store.stepState(ctx.runId, stepId);
  if (raw === undefined) return 0;
  try {
    const tokens = (JSON.parse(raw) as { tokensBilled?: unknown }).tokensBilled;
    return typeof tokens === "number" && tokens > 0 ? tokens : 0;
  } catch {
    return 0;
  }
}

/** Records the model tokens not yet billed (those of this attempt, and an earlier one's a killed process never billed). */
export function billAgentTokens(ctx: RunContext, stepId: string, tokensUsed: number, billedBefore: number): void {
  const credits = agentTokenCredits(tokensUsed) - agentTokenCredits(billedBefore);
  if (credits > 0) ctx.ports.store.recordCredits({ runId: ctx.runId, stepId, credits, reason: `agent: ${tokensUsed - billedBefore} model token(s)` });
  ctx.ports.store.saveStepState(ctx.runId, stepId, JSON.stringify({ tokensBilled: tokensUsed }));
}
