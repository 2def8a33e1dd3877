import type { CommandModule } from "yargs";
import type { AgentResult, ExpectationVerdict, StoredSearchResult } from "../../core/index.js";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";
import { resumeLine } from "../resume-hint.js";
import { table } from "../table.js";
import { brokenText } from "../reporters/broken.js";

const duration = (ms: number | null) => (ms === null ? "-" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export function runsCommand(io: Io, setExit: (code: number) => void): CommandModule<object, { db?: string; json: boolean; pipeline?: string; limit: number }> {
  return {
    command: "runs",
    describe: "List the runs in the database, newest first",
    builder: (y) =>
      y
        .option("db", DB_OPTION)
        .option("pipeline", { type: "string", describe: "only runs of this pipeline" })
        .option("limit", { ...integerOption("limit", "how many runs", { min: 1 }), default: 50 })
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    handler: async (args) => {
      const { listRuns } = await import("../../app/export/index.js");
      const runs = listRuns(databasePath(args.db), { ...(args.pipeline ? { pipeline: args.pipeline } : {}), limit: args.limit });
      if (args.json) io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
      else if (runs.length === 0) io.stdout("no runs yet\n");
      else {
        // Runs made from another run's stored pages (run --from-run) say which, in a column shown only then.
        const made = runs.some((r) => r.fromRun !== undefined);
        const fromColumn = (r: (typeof runs)[number]) => (made ? [r.fromRun !== undefined ? `run ${r.fromRun}` : ""] : []);
        io.stdout(table(["id", "pipeline", "status", "started", "duration", "documents", "credits", ...(made ? ["from"] : [])], runs.map((r) => [String(r.id), r.pipelineName, r.status, r.startedAt, duration(r.durationMs), String(r.documents), String(r.creditsUsed), ...fromColumn(r)]), 4));
        // `--resume` alone picks a pipeline's newest unfinished run: say how to finish each.
        const newest = new Map<string, (typeof runs)[number]>();
        for (const r of runs) if (!newest.has(r.pipelineName)) newest.set(r.pipelineName, r);
        for (const r of newest.values()) {
          const line = resumeLine(r, args.db);
          if (line) io.stdout(`\n${r.error ? `run ${r.id}: ${r.error}\n` : ""}${line}\n`);
        }
      }
      setExit(EXIT.ok);
    },
  };
}

export function showCommand(io: Io, setExit: (code: number) => void): CommandModule<object, { run: string; db?: string; json: boolean }> {
  return {
    command: "show [run]",
    describe: "Summarize one run (an id, or latest)",
    builder: (y) =>
      y
        .positional("run", { type: "string", default: "latest", describe: "run id or latest" })
        .option("db", DB_OPTION)
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    handler: async (args) => {
      const { showRun } = await import("../../app/export/index.js");
      const detail = showRun(databasePath(args.db), args.run);
      if (args.json) {
        io.stdout(`${JSON.stringify(detail, null, 2)}\n`);
      } else {
        const r = detail.run;
        io.stdout(`run ${r.id} of ${r.pipelineName} (${r.pipelineFile}): ${r.status}\nstarted ${r.startedAt}, took ${duration(r.durationMs)}, ${r.documents} document(s), ${r.creditsUsed} credit(s), engine ${r.engine}\n${r.fromRun !== undefined ? `made from the pages run ${r.fromRun} stored (run --from-run)\n` : ""}${r.error ? `error: ${r.error}\n` : ""}`);
        const line = resumeLine(r, args.db);
        if (line) io.stdout(`${line}\n`);
        io.stdout("\n");
        io.stdout(table(["step", "kind", "status", "documents", "failures", "retries", "credits"], detail.steps.map((s) => [s.stepId, s.kind, s.status, String(s.documents), String(s.failures), String(s.retries), String(s.creditsUsed)]), 3));
        const { searchLine } = await import("../search-lines.js");
        for (const [stepId, result] of Object.entries(detail.results)) {
          if (detail.steps.find((s) => s.stepId === stepId)?.kind === "search") io.stdout(`\n${searchLine(stepId, result as unknown as StoredSearchResult)}\n`);
          else if (detail.steps.find((s) => s.stepId === stepId)?.kind === "agent") io.stdout(`\n${(await import("../agent-lines.js")).agentLines(stepId, result as unknown as AgentResult)}\n`);
          else io.stdout(`\n${stepId}: extract ${result.status}, ${describeData(result.data)}, ${result.tokensUsed} token(s), ${result.creditsUsed} credit(s)${result.error ? `: ${result.error}` : ""}\n`);
        }
        if (detail.scrapes.length) io.stdout(`\nscrapes:\n${scrapeLines(detail.scrapes).join("\n")}\n`);
        if (detail.warnings.length) io.stdout(`\nwarnings:\n${detail.warnings.map((w) => `  [${w.stepId}] ${w.url ? `${w.url}: ` : ""}${w.message}`).join("\n")}\n`);
        const judged = expectationLines(r.pipelineFile, [...detail.steps.map((s) => ({ step: s.stepId, verdict: s.expectations })), { step: "pipeline", verdict: r.expectations }]);
        if (judged.length) io.stdout(`\nexpectations:\n${judged.join("\n")}\n`);
        if (detail.failures.length) io.stdout(`\nfailed pages:\n${detail.failures.map((f) => `  [${f.stepId}] ${f.url}: ${f.kind}: ${f.error}`).join("\n")}\n`);
      }
      setExit(EXIT.ok);
    },
  };
}

/** "  [products] fields.price held (shop.yaml:14:9): 40 values, 40 not empty" for each judged expectation. */
function expectationLines(file: string, verdicts: ReadonlyArray<{ step: string; verdict: ExpectationVerdict | undefined }>): string[] {
  return verdicts.flatMap(({ step, verdict }) =>
    (verdict?.results ?? []).map((e) => `  [${step}] ${e.name} ${e.passed ? "held" : "broke"} (${file}:${e.at.line}:${e.at.column}): ${e.passed ? e.seen : brokenText(e)}`),
  );
}

/** "books: 6 items, title" — what an extract's data holds, in a few words. */
function describeData(data: unknown): string {
  if (Array.isArray(data)) return `${data.length} item(s)`;
  if (typeof data !== "object" || data === null) return "no data";
  const fields = Object.entries(data).map(([key, value]) => (Array.isArray(value) ? `${key}: ${value.length} item(s)` : key));
  return fields.length ? `data { ${fields.join(", ")} }` : "no data";
}

/** Scraped pages shown per step before the rest is left to --json. */
const SCRAPES_SHOWN = 20;

/** "  [invoices] 1b4e…  https://…" for each scraped page, the first SCRAPES_SHOWN of each step. */
function scrapeLines(scrapes: ReadonlyArray<{ stepId: string; url: string; scrapeId: string }>): string[] {
  const lines: string[] = [];
  const counts = new Map<string, number>();
  for (const s of scrapes) counts.set(s.stepId, (counts.get(s.stepId) ?? 0) + 1);
  const shown = new Map<string, number>();
  for (const s of scrapes) {
    const n = (shown.get(s.stepId) ?? 0) + 1;
    shown.set(s.stepId, n);
    if (n <= SCRAPES_SHOWN) lines.push(`  [${s.stepId}] ${s.scrapeId}  ${s.url}`);
    else if (n === SCRAPES_SHOWN + 1) lines.push(`  [${s.stepId}] … ${counts.get(s.stepId)! - SCRAPES_SHOWN} more (show --json lists them all)`);
  }
  return lines;
}
