import type { AgentMessage, AgentModel, AgentTurn } from "../../src/core/index.js";
import { ScrapelineError } from "../../src/core/index.js";

/** One turn of a scripted model: its content and tool calls (arguments as an object, or a raw string). */
export type ScriptedTurn = Partial<AgentTurn> & { calls?: Array<[string, unknown]> };

/** A model that plays turns in order and keeps what it was sent (`seen`: the messages of each turn). */
export function scripted(...turns: ScriptedTurn[]): AgentModel & { seen: AgentMessage[][] } {
  const seen: AgentMessage[][] = [];
  let n = 0;
  return {
    seen,
    async turn(messages) {
      seen.push(structuredClone([...messages]));
      const next = turns.shift();
      if (!next) throw new ScrapelineError("bad-content", "script ran out");
      const toolCalls = (next.calls ?? []).map(([name, args]) => ({ id: `c${++n}`, name, arguments: typeof args === "string" ? args : JSON.stringify(args) }));
      return { content: next.content ?? "", toolCalls, tokens: next.tokens ?? 30 };
    },
  };
}
