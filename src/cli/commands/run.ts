import type { CommandModule } from "yargs";
import { databasePath, type RunEvent } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION, integerOption, VAR_OPTION, varsOf } from "../options.js";
import { chooseFormat, printDiagnostics, type Io } from "../output.js";
import { logLine, notedOnBars, ProgressBars, RunTally } from "../progress.js";
import { resumeLine, resumeWords } from "../resume-hint.js";
import { runSummary, summaryJson, summaryTable } from "../summary.js";
import { brokenLines, parseReporters, writeReports } from "../reporters/index.js";
import { signalExitCode, type Interrupts } from "../interrupts.js";

interface Args {
  file: string;
  db?: string;
  var: string[];
  resume?: string | boolean;
  json: boolean;
  "allow-private-network": boolean;
  concurrency?: number;
  engine?: "local" | "firecrawl";
  record?: string;
  replay?: string;
  "from-run"?: string;
  "fetch-missing": boolean;
  reporter: string[];
}

export function runCommand(io: Io, setExit: (code: number) => void, signals: Interrupts): CommandModule<object, Args> {
  return {
    command: "run <file>",
    describe: "Run a pipeline: every step, every page stored in the database",
    builder: (y) =>
      y
        .positional("file", { type: "string", demandOption: true, describe: "pipeline file" })
        .option("db", DB_OPTION)
        .option("var", VAR_OPTION)
        .option("resume", { describe: "continue the latest interrupted run of this pipeline, or the run with this id" })
        .option("json", { type: "boolean", default: false, describe: "print the summary as JSON" })
        .option("allow-private-network", { type: "boolean", default: false, describe: "let requests reach loopback and private addresses" })
        .option("concurrency", integerOption("concurrency", "requests in flight for the whole run (overrides the pipeline)", { min: 1 }))
        .option("engine", { choices: ["local", "firecrawl"] as const, describe: "run on this engine instead of the pipeline's (firecrawl: the service at FIRECRAWL_API_URL with FIRECRAWL_API_KEY)" })
        .option("record", { type: "string", describe: "keep every response the run used in this fixture directory (pages, robots.txt, sitemaps, model calls, searches)" })
        .option("replay", { type: "string", describe: "answer every request from this fixture directory, never from the network (a request not recorded fails with not-recorded)" })
        .option("from-run", { type: "string", describe: "convert the pages run N (or the pipeline's latest run: latest) stored, with no network; the results go to a new run" })
        .option("fetch-missing", { type: "boolean", default: false, describe: "with --from-run: fetch pages that run never fetched instead of failing them with not-stored" })
        .option("reporter", { type: "string", array: true, default: [] as string[], describe: "also report the run for CI: junit=FILE (JUnit XML) or github (annotations and job summary); may be given more than once" })
        .example("$0 run pipelines/prices.yaml", "run a pipeline")
        .example("$0 run pipelines/prices.yaml --record fixtures/prices", "run it and keep what it fetched in fixtures/prices")
        .example("$0 run pipelines/prices.yaml --reporter junit=report.xml --reporter github", "run a recipe in CI")
        .example("$0 run pipelines/prices.yaml --from-run latest", "try a changed selector or schema on the pages the last run fetched")
        .example("$0 run pipelines/docs.yaml --resume", "finish an interrupted run") as never,
    handler: async (args) => {
      const { exitCodeOf, runPipelineFile } = await import("../../app/run/index.js");
      const vars = varsOf(args.var);
      const resume = args.resume === undefined || args.resume === false ? undefined : args.resume === true || args.resume === "" ? true : Number(args.resume);
      if (typeof resume === "number" && !Number.isInteger(resume)) {
        io.stderr(`error: --resume takes a run id, got "${args.resume}"\n`);
        setExit(EXIT.invalid);
        return;
      }
      const fromRun = fromRunOf(args["from-run"]);
      if (typeof fromRun === "string" && fromRun !== "latest") {
        io.stderr(`error: ${fromRun}\n`);
        setExit(EXIT.invalid);
        return;
      }
      if (args["fetch-missing"] && fromRun === undefined) {
        io.stderr("error: --fetch-missing goes with --from-run (a live run fetches every page anyway)\n");
        setExit(EXIT.invalid);
        return;
      }
      const reporters = parseReporters(args.reporter);
      if (typeof reporters === "string") {
        io.stderr(`error: ${reporters}\n`);
        setExit(EXIT.invalid);
        return;
      }
      const tally = new RunTally();
      const bars = io.isTTY && !args.json ? new ProgressBars(io, tally) : undefined;
      const onEvent = (event: RunEvent) => {
        tally.apply(event);
        const line = logLine(event);
        if (!line) return;
        if (bars) {
          if (notedOnBars(event)) bars.note(line);
        } else if (!args.json) io.stderr(`${line}\n`);
      };
      signals.onStop(() => (bars ? bars.note("stopping: waiting for pages in flight (Ctrl-C or SIGTERM again to abort them)") : io.stderr("stopping: waiting for pages in flight (Ctrl-C or SIGTERM again to abort them)\n")));
      // A closed output (`scrapeline run … 2>&1 | head`) stops the run as Ctrl-C does: interrupted, resumable.
      io.onClosed?.(() => signals.requestStop());
      bars?.start();
      const words = resumeWords(args);
      let result;
      try {
        result = await runPipelineFile(args.file, {
          db: databasePath(args.db),
          vars,
          ...(resume !== undefined ? { resume } : {}),
          allowPrivateNetwork: args["allow-private-network"],
          ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
          ...(args.engine ? { engineKind: args.engine } : {}),
          ...(args.record !== undefined ? { record: args.record } : {}),
          ...(args.replay !== undefined ? { replay: args.replay } : {}),
          ...(fromRun !== undefined ? { fromRun, fetchMissing: args["fetch-missing"] } : {}),
          onFromRun: ({ run, warning }) => {
            // The command that finishes the run converts the same run's pages.
            words.push("--from-run", String(run.id), ...(args["fetch-missing"] ? ["--fetch-missing"] : []));
            if (warning) io.stderr(`warning: ${warning}\n`);
            io.stderr(`converting the pages run ${run.id} stored (pipeline "${run.pipelineName}", started ${run.startedAt}); nothing is fetched${args["fetch-missing"] ? " but the pages it never fetched" : ""}\n`);
          },
          onEvent,
          resumeWords: words,
          stop: signals.stop,
          abort: signals.abort,
        });
      } finally {
        bars?.stop();
      }
      if (!result.ok) {
        printDiagnostics(io, result.diagnostics, chooseFormat(undefined, io), new Map(), io.stderr);
        setExit(EXIT.invalid);
        return;
      }
      if (result.warnings.length) printDiagnostics(io, result.warnings, "short", new Map(), io.stderr);
      const summary = runSummary(tally, result.status, result.credits, result.documents);
      io.stdout(args.json ? summaryJson(tally, result.status, result.credits, result.documents) : summaryTable(tally, result.status, result.credits, result.documents) + brokenLines(args.file, summary));
      if (reporters.length) {
        const positions = new Map(result.pipeline.steps.map((s) => [s.id, s.at]));
        const input = { summary, file: args.file, stepAt: (id: string) => positions.get(id) };
        writeReports(reporters, input, args.json ? io.stderr : io.stdout);
      }
      const notify = result.notify;
      if (notify) {
        // Webhook URLs often carry their secret in the path: deliveries name only the origin.
        if (notify.skipped) io.stderr(`no notification: ${notify.skipped}\n`);
        for (const d of notify.deliveries) {
          if (d.sent) io.stderr(`notified ${d.target} (${d.channel}, ${d.event})${d.status !== undefined ? `: HTTP ${d.status}` : ""}\n`);
          else io.stderr(`warning: the notification to ${d.target} (${d.channel}, ${d.event}) failed after ${d.attempts} attempt(s): ${d.error}\n`);
        }
      }
      if (result.cause === "expectation") io.stderr(`run ${result.runId} broke its expectations (listed above); its pages are stored\n`);
      const hint = result.cause === "expectation" ? undefined : resumeLine({ id: result.runId, status: result.status, resumeWords: words }, undefined);
      if (hint) io.stderr(`${hint}\n`);
      // A run a signal interrupted exits as that signal would have ended it: 130 (SIGINT), 143 (SIGTERM).
      setExit(result.status === "interrupted" && signals.received() ? signalExitCode(signals.received()) : exitCodeOf(result.status, result.cause));
    },
  };
}

/** --from-run's value: a run id, `latest`, or what is wrong with it. */
function fromRunOf(value: string | undefined): number | "latest" | string | undefined {
  if (value === undefined) return undefined;
  if (value === "latest") return "latest";
  const id = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(id) && id > 0 ? id : `--from-run takes a run id or latest, got "${value}"`;
}
