import { readFileSync } from "node:fs";
import yargs, { type CommandModule } from "yargs";
import { didYouMean } from "../app/light.js";
import { EXIT } from "./exit-codes.js";
import { planCommand } from "./commands/plan.js";
import { changesCommand, diffCommand, historyCommand } from "./commands/changes.js";
import { crawlPreviewCommand } from "./commands/crawl-preview.js";
import { exportCommand } from "./commands/export.js";
import { runCommand } from "./commands/run.js";
import { testCommand } from "./commands/test.js";
import { runsCommand, showCommand } from "./commands/runs.js";
import { schemaCommand } from "./commands/schema.js";
import { usageCommand } from "./commands/usage.js";
import { keysCommand, teamsCommand } from "./commands/keys.js";
import { serveCommand } from "./commands/serve.js";
import { validateCommand } from "./commands/validate.js";
import { parseCommand } from "./commands/parse.js";
import { uiCommand } from "./commands/ui.js";
import { watchCommand } from "./commands/watch.js";
import { workerCommand } from "./commands/worker.js";
import { monitorsCommand } from "./commands/monitors.js";
import { quietInterrupts, signalInterrupts, type Interrupts } from "./interrupts.js";
import { UsageError } from "./options.js";
import { exitForCommandError, processIo, type Io } from "./output.js";

export { quietInterrupts, signalInterrupts, type Interrupts };

/** This package's version, from its own package.json (never the one of the directory the command runs in). */
const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** Runs the CLI with the given arguments; resolves to the exit code. Never calls process.exit. */
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
    testCommand(io, setExit),
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
    parseCommand(io, setExit),
    uiCommand(io, setExit),
    watchCommand(io, setExit, interrupts),
    workerCommand(io, setExit, interrupts),
    monitorsCommand(io, setExit),
  ] as never;
  const names = commands.map((c) => String(c.command).split(" ")[0]!);
  const first = argv[0];
  if (first !== undefined && !first.startsWith("-") && !names.includes(first)) {
    const hint = didYouMean(first, names);
    io.stderr(`error: unknown command "${first}"${hint ? ` (${hint})` : ""}\nRun scrapeline --help for the list of commands.\n`);
    return EXIT.invalid;
  }
  let known: string[] = [];
  const parser = yargs([...argv])
    .scriptName("scrapeline")
    .usage("$0 <command> [options]\n\nRun web-data pipelines written as YAML files.")
    .command(commands)
    .demandCommand(1, "name a command")
    .strict()
    .recommendCommands()
    .example("$0 validate pipelines/", "check every pipeline in a directory")
    .example("$0 plan pipelines/docs.yaml", "show what a pipeline would run")
    .epilog("Exit codes: 0 success, 1 a step failed, 2 invalid pipeline or usage, 3 budget exhausted, 130 interrupted (143 by SIGTERM).")
    .help()
    .alias("h", "help")
    .version(VERSION)
    // The command line speaks English, as every message of its own does.
    .locale("en")
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      // Throwing here (rather than returning) is what keeps yargs from running the handler of a
      // command whose arguments are wrong: a bad command line must cost nothing.
      // A coerce function's UsageError reaches here wrapped in yargs' own YError.
      if (error && !(error instanceof UsageError) && error.name !== "YError") throw error;
      known = Object.keys((parser as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
      throw new UsageError(error?.message ?? message ?? "invalid command line");
    });
  skipHelpRendering(parser);
  let output: string;
  try {
    output = await new Promise<string>((resolve, reject) => {
      parser.parseAsync([...argv], {}, (err, _argv, text) => (err ? reject(err) : resolve(text))).catch(reject);
    });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${explainUsage(error.message, known, argv, commands.find((c) => String(c.command).split(" ")[0] === first)?.command)}\nRun scrapeline ${first && names.includes(first) ? `${first} ` : ""}--help for the options.\n`);
      return EXIT.invalid;
    }
    return exitForCommandError(error, io);
  }
  if (output) io.stdout(`${output}\n`);
  return exitCode;
}

/**
 * yargs renders a command's whole help text before it runs the command, to have it at hand should
 * the command fail later; this CLI's failures print their own message and a pointer to `--help`, so
 * that rendering (a tenth of a command's start-up) is skipped. `--help` itself renders as before.
 */
function skipHelpRendering(parser: unknown): void {
  const internals = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.();
  const usage = internals?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => {};
}

/** yargs' message, with "did you mean" for a mistyped option and without its camelCase echo. */
export function explainUsage(message: string, known: readonly string[], argv: readonly string[], command?: string | readonly string[]): string {
  if (/^Not enough non-option arguments/.test(message) && typeof command === "string") return `missing argument: scrapeline ${command}`;
  const unknown = /^Unknown arguments?: (.*)$/s.exec(message);
  if (!unknown) return message;
  const given = unknown[1]!.split(", ");
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const options = known.filter((k) => k.length > 1 && !/[A-Z]/.test(k));
  const asOption = (name: string) => argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `--no-${name}` || a === `-${name}`);
  return given
    .filter((name) => !/[A-Z]/.test(name) || !given.includes(kebab(name)))
    .map((name) => {
      const typed = asOption(name);
      if (!typed) return `unexpected argument "${name}"`;
      const hint = name.length > 1 ? didYouMean(name, options) : undefined;
      return `unknown option ${typed.split("=")[0]}${hint ? ` (${hint.replace(/"([^"]+)"/, '"--$1"')})` : ""}`;
    })
    .join("\n");
}
