import { randomUUID } from "node:crypto";
import type { AgentRequest, AgentResult, AgentTranscriptEntry, OnEngineWait } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { ServiceHttp } from "./http.js";

const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5000;
/** The service's default of maxSteps; not sent unless changed (the hosted agent takes no such key). */
const DEFAULT_MAX_STEPS = 30;

interface StatusReply {
  success?: boolean;
  status?: string;
  data?: unknown;
  sources?: Record<string, string[]>;
  creditsUsed?: number;
  error?: string;
  partial?: boolean;
  transcript?: AgentTranscriptEntry[];
}

/**
 * The agent on the service: POST /v2/agent, then GET /v2/agent/{id} until it is no longer
 * processing. Stopped by the signal, it asks the service to cancel the job (DELETE) and ends
 * cancelled. Credits are what the service reports; the transcript when the service gives one.
 */
export async function agentService(http: ServiceHttp, request: AgentRequest, options: { signal?: AbortSignal; onWait?: OnEngineWait }): Promise<AgentResult> {
  const { signal, onWait } = options;
  const { maxSteps, scrapeOptions: _local, ...rest } = request;
  const body = { ...rest, ...(maxSteps !== DEFAULT_MAX_STEPS ? { maxSteps } : {}) };
  const started = await http.call<{ id?: string; success?: boolean; error?: string }>("POST", "/v2/agent", { body, what: "starting an agent", attempts: 4, idempotencyKey: randomUUID(), ...(signal ? { signal } : {}), ...(onWait ? { onWait } : {}) });
  if (!started.id) throw new ScrapelineError("bad-content", `the service started an agent without giving its id${started.error ? `: ${started.error}` : ""}`);
  const id = started.id;
  let wait = FIRST_POLL_MS;
  try {
    for (;;) {
      const status = await http.call<StatusReply>("GET", `/v2/agent/${encodeURIComponent(id)}`, { what: `the status of agent job ${id}`, attempts: 5, ...(signal ? { signal } : {}), ...(onWait ? { onWait } : {}) });
      if (status.status && status.status !== "processing") return resultOf(status);
      await http.sleep(wait, signal);
      wait = Math.min(MAX_POLL_MS, Math.round(wait * 1.5));
    }
  } catch (error) {
    if (signal?.aborted) {
      await http.call("DELETE", `/v2/agent/${encodeURIComponent(id)}`, { what: `cancelling agent job ${id}`, attempts: 1 }).catch(() => undefined);
      throw new ScrapelineError("cancelled", `the agent job ${id} was cancelled`);
    }
    throw error;
  }
}

function resultOf(status: StatusReply): AgentResult {
  const base = { data: status.data ?? null, sources: status.sources ?? {}, creditsUsed: status.creditsUsed ?? 0, tokensUsed: 0, transcript: status.transcript ?? [] };
  if (status.status === "completed") return { ...base, status: status.partial ? "partial" : "completed", ...(status.partial && status.error ? { error: status.error } : {}) };
  const cancelled = status.status === "cancelled";
  return { ...base, status: "failed", error: status.error ?? (cancelled ? "the agent was cancelled" : "the agent failed on the service"), errorKind: cancelled ? "cancelled" : "bad-content" };
}
