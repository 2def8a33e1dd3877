import { asBody, readStep, warningOf } from "./requests.js";
import type { AgentRequest, AgentResult, Pipeline, ServeJob, Step, Store } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";

export interface AgentCall {
  request: AgentRequest;
  pipeline: Pipeline;
  warning?: string;
}

/** POST /v2/agent: the body checked as an agent step would be; errors are one 400 message. */
export function readAgentCall(raw: unknown): AgentCall {
  const body: Record<string, unknown> = asBody(raw);
  if (body.webhook !== undefined) throw new ScrapelineError("unsupported", "Bad request: webhook is not supported by this server: poll GET /v2/agent/{id}");
  const { step, pipeline, warnings } = readStep("agent", body);
  return { request: (step as Extract<Step, { kind: "agent" }>).body, pipeline, ...warningOf(warnings) };
}

/** GET /v2/agent/{id}: processing while it runs; then completed (a partial result too, with its reason) or failed. */
export interface AgentStatusReply {
  success: boolean;
  status: "processing" | "completed" | "failed" | "cancelled";
  data: unknown;
  sources?: Record<string, string[]>;
  creditsUsed: number;
  expiresAt: string;
  error?: string;
  /** The agent stopped short (maxCredits, maxSteps, a loop): `data` is what it had. */
  partial?: boolean;
  /** Every model answer and tool call (this server's addition). */
  transcript?: AgentResult["transcript"];
}

export function agentReply(store: Store, job: ServeJob, stepId: string, creditsUsed: number, expiresAt: string): AgentStatusReply {
  if (job.status === "scraping") return { success: true, status: "processing", data: null, creditsUsed, expiresAt };
  const raw = job.runId === null ? undefined : store.stepResult(job.runId, stepId);
  const result = raw === undefined ? undefined : (JSON.parse(raw) as AgentResult);
  const shared = { data: result?.data ?? null, ...(result ? { sources: result.sources, transcript: result.transcript } : {}), creditsUsed, expiresAt };
  if (job.status === "cancelled") return { success: false, status: "cancelled", ...shared, error: "the agent was cancelled" };
  if (job.status === "completed" && result && result.status !== "failed") return { success: true, status: "completed", ...shared, ...(result.status === "partial" ? { partial: true, error: result.error ?? "stopped short" } : {}) };
  const stepError = job.runId === null ? undefined : store.getSteps(job.runId)[0]?.error;
  return { success: false, status: "failed", ...shared, error: result?.error ?? stepError ?? job.error ?? "the agent failed" };
}

/** An agent job as GET /v2/agent lists it. */
export interface AgentListItem {
  id: string;
  createdAt: string;
  targetHint: string;
  origin: string;
  settings: { hidden: boolean; starred: boolean };
  status: "processing" | "completed" | "failed" | "cancelled";
}

export function agentListItem(job: ServeJob): AgentListItem {
  const status = job.status === "scraping" ? "processing" : job.status;
  return { id: job.id, createdAt: job.createdAt, targetHint: job.url ?? "", origin: "api", settings: { hidden: false, starred: false }, status };
}
