import yargs, { type CommandModule } from "yargs";
import { didYouMean } from "../app/index.js";
import { isScrapelineError } from "../core/index.js";
import { EXIT } from "./exit-codes.js";
import { planCommand } from "./commands/plan.js";
import { changesCommand, diffCommand, historyCommand } from "./commands/changes.js";
import { crawlPreviewCommand } from "./commands/crawl-preview.js";
import { exportCommand } from "./commands/export.js";
import { runCommand } from "./commands/run.js";
import { runsCommand, showCommand } from "./commands/runs.js";
import { schemaCommand } from "./commands/schema.js";
import { usageCommand } from "./commands/usage.js";
import { keysCommand, teamsCommand } from "./commands/keys.js";
import { serveCommand } from "./commands/serve.js";
import { validateCommand } from "./commands/validate.js";
import { processIo, type Io } from "./output.js";

/** Runs the CLI with the given arguments; resolves to the exit code. Never calls process.exit. */

/** Ctrl-C handling for long commands: the first stops scheduling, the second aborts. */
export interface Interrupts {
  stop: AbortSignal;
  abort: AbortSignal;
  onStop: (callback: () => void) => void;
}

export function quietInterrupts(): Interrupts {
  return { stop: new AbortController().signal, abort: new AbortController().signal, onStop: () => {} };
}

export async function runCli(argv: readonly string[], io: Io = processIo(), interrupts: Interrupts = quietInterrupts()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = code;
  };
  const commands: Array<CommandModule<object, never>> = [
    validateCommand(io, setExit),
    planCommand(io, setExit),
    schemaCommand(io, setExit),
    runCommand(io, setExit, interrupts),
    runsCommand(io, setExit),
    showCommand(io, setExit),
    exportCommand(io, setExit),
    crawlPreviewCommand(io, setExit),
    changesCommand(io, setExit),
    historyCommand(io, setExit),
    diffCommand(io, setExit),
    usageCommand(io, setExit),
    serveCommand(io, setExit),
    keysCommand(io, setExit),
    teamsCommand(io, setExit),
  ] as never;
  const names = commands.map((c) => String(c.command).split(" ")[0]!);
  const first = argv[0];
  if (first !== undefined && !first.startsWith("-") && !names.includes(first)) {
    const hint = didYouMean(first, names);
    io.stderr(`error: unknown command "${first}"${hint ? ` (${hint})` : ""}\nRun scrapeline --help for the list of commands.\n`);
    return EXIT.invalid;
  }
  let usageError: string | undefined;
  const parser = yargs([...argv])
    .scriptName("scrapeline")
    .usage("$0 <command> [options]\n\nRun web-data pipelines written as YAML files.")
    .command(commands)
    .demandCommand(1, "name a command")
    .strict()
    .recommendCommands()
    .example("$0 validate pipelines/", "check every pipeline in a directory")
    .example("$0 plan pipelines/docs.yaml", "show what a pipeline would run")
    .epilog("Exit codes: 0 success, 1 a step failed, 2 invalid pipeline or usage, 3 budget exhausted, 130 interrupted.")
    .help()
    .alias("h", "help")
    .version()
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      usageError = message;
    });
  let output: string;
  try {
    output = await new Promise<string>((resolve, reject) => {
      parser.parseAsync([...argv], {}, (err, _argv, text) => (err && !usageError ? reject(err) : resolve(text))).catch(reject);
    });
  } catch (error) {
    if (!isScrapelineError(error)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return error.kind === "invalid-input" || error.kind === "unsupported" ? EXIT.invalid : EXIT.stepFailed;
  }
  if (usageError) {
    io.stderr(`${output ? `${output}\n\n` : ""}error: ${usageError}\n`);
    return EXIT.invalid;
  }
  if (output) io.stdout(`${output}\n`);
  return exitCode;
}
