import type { AgentResult, AgentTranscriptEntry } from "../core/index.js";

const OUTPUT_CHARS = 160;

/** An agent step's result for `show`: its outcome, data and sources, then its transcript turn by turn. */
export function agentLines(stepId: string, result: AgentResult): string {
  const lines = [`${stepId}: agent ${result.status}, ${result.tokensUsed} token(s), ${result.creditsUsed} credit(s)${result.error ? `: ${result.error}` : ""}`];
  if (result.data !== null && result.data !== undefined) lines.push(`  data: ${JSON.stringify(result.data)}`);
  for (const [field, urls] of Object.entries(result.sources ?? {})) lines.push(`  source of ${field}: ${urls.join(", ")}`);
  lines.push("  transcript:");
  for (const entry of result.transcript ?? []) lines.push(`    ${entryLine(entry)}`);
  return lines.join("\n");
}

function entryLine(entry: AgentTranscriptEntry): string {
  const turn = `[${entry.turn}]`;
  switch (entry.type) {
    case "model":
      return entry.toolCalls.length
        ? `${turn} model (${entry.tokens} token(s)) calls ${entry.toolCalls.map((c) => `${c.name} ${c.arguments}`).join("; ")}`
        : `${turn} model (${entry.tokens} token(s)) answers: ${short(entry.content)}`;
    case "tool":
      return `${turn} ${entry.name} ${entry.arguments} → ${entry.credits} credit(s): ${short(entry.output)}`;
    case "refused":
      return `${turn} refused ${entry.name} ${entry.arguments}: ${entry.reason}`;
    case "stopped":
      return `${turn} stopped: ${entry.reason}`;
  }
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > OUTPUT_CHARS ? `${flat.slice(0, OUTPUT_CHARS)}…` : flat;
}
