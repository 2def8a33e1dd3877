import type { AgentModel, AgentResult, AgentTranscriptEntry, Step } from "../../core/index.js";
import { agentTokenCredits, ScrapelineError } from "../../core/index.js";
import { billAgentTokens, interruptedAgent } from "./agent-resume.js";
import { RunnerAgentTools } from "./agent-tools.js";
import type { RunContext } from "../context.js";
import type { StepTally } from "../page.js";

type AgentStep = Extract<Step, { kind: "agent" }>;

/**
 * Runs an agent: locally, the loop (src/agent, handed in by the app) with the engine's model and
 * tools through this run; on a service, the service's agent job. The result — data, per-field
 * sources, credits and the transcript of every model answer and tool call — is the step's result
 * (`show` prints it, `export --step` writes it); the pages it read are the step's documents. A
 * partial result (maxCredits, maxSteps, a loop) is kept and warned about; a failure is kept too,
 * then fails the step with its reason.
 */
export async function runAgentStep(ctx: RunContext, step: AgentStep, timeout: AbortSignal): Promise<StepTally> {
  const { engine, store } = ctx.ports;
  ctx.emit({ type: "step-started", stepId: step.id, kind: step.kind });
  const tally: StepTally = { documents: 0, failures: 0, cancelled: false };
  // A stopped run (Ctrl-C, a cancelled serve job) stops the agent too: it has no pages to finish.
  const signal = AbortSignal.any([timeout, ctx.abort, ctx.stop]);
  let result: AgentResult;
  if (engine.agentJob) {
    const { scrapeOptions: _local, ...request } = step.body;
    // The service keeps to maxCredits: within a run's budget, to what is left of it.
    if (ctx.budget.limit !== undefined) {
      const left = ctx.budget.limit - ctx.budget.total;
      if (left <= 0) {
        ctx.budget.exhausted = true;
        ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit, needed: 1 });
        ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
        return { ...tally, cancelled: true };
      }
      request.maxCredits = Math.min(request.maxCredits, left);
    }
    result = await engine.agentJob(request, { signal, onWait: (wait) => ctx.emit({ type: "step-waiting", stepId: step.id, waitMs: wait.waitMs, reason: wait.reason }) });
    ctx.budget.settle(0, result.creditsUsed);
    if (result.creditsUsed > 0) store.recordCredits({ runId: ctx.runId, stepId: step.id, credits: result.creditsUsed, reason: `agent on the service` });
  } else {
    if (!engine.agentModel || !ctx.ports.agent) throw new ScrapelineError("unsupported", `the ${engine.name} engine cannot run agent steps`);
    const model = budgeted(ctx, engine.agentModel());
    // On --resume an interrupted agent goes on from its transcript, and reads back the pages it stored.
    const earlier = interruptedAgent(ctx, step.id);
    const tools = new RunnerAgentTools(ctx, step, timeout, tally, model.contextTokens, earlier?.storedUrls);
    result = await ctx.ports.agent({ request: step.body, model, tools, signal, onEntry: keepSoFar(ctx, step.id, earlier?.transcript), ...(earlier ? { earlier: earlier.transcript } : {}) });
    billAgentTokens(ctx, step.id, result.tokensUsed, earlier?.tokensBilled ?? 0);
  }
  store.saveStepResult(ctx.runId, step.id, JSON.stringify(result));
  if (result.status === "failed") {
    if (result.errorKind === "cancelled" && (ctx.abort.aborted || ctx.stop.aborted)) tally.cancelled = true;
    else throw new ScrapelineError(result.errorKind ?? "bad-content", `the agent failed: ${result.error ?? "no reason given"}`);
  }
  if (result.status === "partial") ctx.emit({ type: "step-warning", stepId: step.id, message: `the agent stopped with a partial result: ${result.error ?? "no reason given"}` });
  // A page a tool could not read was told to the model, which went on: it is listed among the
  // run's failed pages, but the step's outcome is the agent's.
  return { ...tally, failures: 0 };
}

/**
 * Stores the transcript as it grows, as a partial result, so a run killed mid-agent keeps every
 * answer and tool call so far (the finished result replaces it).
 */
function keepSoFar(ctx: RunContext, stepId: string, earlier: readonly AgentTranscriptEntry[] = []): (entry: AgentTranscriptEntry) => void {
  const transcript: AgentTranscriptEntry[] = [];
  let tokens = 0;
  let toolCredits = 0;
  const add = (entry: AgentTranscriptEntry) => {
    transcript.push(entry);
    if (entry.type === "model") tokens += entry.tokens;
    if (entry.type === "tool") toolCredits += entry.credits;
  };
  earlier.forEach(add);
  return (entry) => {
    add(entry);
    // Marked cancelled: a run killed here goes on from this transcript on --resume.
    const soFar: AgentResult = { status: "partial", data: null, sources: {}, creditsUsed: toolCredits + agentTokenCredits(tokens), tokensUsed: tokens, error: "the run stopped before the agent finished", errorKind: "cancelled", transcript };
    ctx.ports.store.saveStepResult(ctx.runId, stepId, JSON.stringify(soFar));
  };
}

/**
 * The model under the run's budget: no turn starts once the budget is spent, and each turn's
 * tokens are counted into it as they come (at 15 tokens a credit, rounded up over the whole agent).
 */
function budgeted(ctx: RunContext, model: AgentModel): AgentModel {
  let tokens = 0;
  let settled = 0;
  return {
    ...(model.contextTokens !== undefined ? { contextTokens: model.contextTokens } : {}),
    async turn(messages, tools, signal) {
      if (ctx.budget.limit !== undefined && ctx.budget.total >= ctx.budget.limit) {
        ctx.budget.exhausted = true;
        ctx.emit({ type: "budget-exhausted", spent: ctx.budget.total, limit: ctx.budget.limit, needed: 1 });
        ctx.halt(`budget of ${ctx.budget.limit} credits reached`);
        throw new ScrapelineError("budget", `the run's budget of ${ctx.budget.limit} credits is spent`);
      }
      const answer = await model.turn(messages, tools, signal);
      tokens += answer.tokens;
      const due = agentTokenCredits(tokens) - settled;
      ctx.budget.settle(0, due);
      settled += due;
      return answer;
    },
  };
}
