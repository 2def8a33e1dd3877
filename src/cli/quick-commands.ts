import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { requireBundled } from "./code-cache.js";

/**
 * The command lines a start most often is, answered without the command-line parser (loading and
 * setting up yargs is most of a start): `--help` and `--version` alone, and `validate` with paths
 * and its own options written plainly. Any other command line, a mistaken one included, goes to the
 * parser (src/cli/cli.ts), which answers as it always does: nothing here decides what is an error.
 */
export function quickCommand(args: readonly string[]): (() => Promise<number>) | undefined {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    const help = renderedHelp();
    return help === undefined ? undefined : async () => write(help);
  }
  if (args.length === 1 && args[0] === "--version") return async () => write(`${packageVersion()}\n`);
  const validate = args[0] === "validate" ? plainValidateArgs(args.slice(1)) : undefined;
  if (validate) return () => runValidate(validate);
  return undefined;
}

/**
 * `scrapeline --help` as the parser renders it, saved by the build (scripts/gen-help.mjs) at the
 * width the parser wraps to when stdout is not a terminal or is one of 100 columns or more
 * (`wrap` in src/cli/cli.ts); on a narrower terminal (or without the file) the parser renders it.
 */
export const RENDERED_HELP = "help.txt";
const HELP_WIDTH = 100;

function renderedHelp(): string | undefined {
  if (Math.min(HELP_WIDTH, process.stdout.columns || HELP_WIDTH) !== HELP_WIDTH) return undefined;
  try {
    return readFileSync(new URL(`./${RENDERED_HELP}`, import.meta.url), "utf8");
  } catch {
    return undefined;
  }
}

/** This package's version, from its own package.json (never the one of the directory the command runs in). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

/** Writes to stdout; a reader that went away (`| head`) is not an error, as for every command. */
function write(text: string): number {
  process.stdout.on("error", () => {});
  process.stdout.write(text);
  return 0;
}

export interface ValidateArgs {
  paths: string[];
  format?: string;
  strict: boolean;
  "allow-private-network": boolean;
}

const FORMATS = ["long", "short", "json"];
/** What yargs would read as a number rather than a path (it then turns it back into text, not always as typed). */
const NUMBER_LIKE = /^(0x[0-9a-f]+|[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?)$/i;

/**
 * `validate`'s arguments when they are paths and each of `--strict`, `--allow-private-network`
 * and `--format long|short|json` at most once, written so (the options in any place); otherwise
 * undefined, for the parser to read them (`--format=json`, `--no-strict`, `--`, a mistake …).
 */
export function plainValidateArgs(rest: readonly string[]): ValidateArgs | undefined {
  const parsed: ValidateArgs = { paths: [], strict: false, "allow-private-network": false };
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith("-")) {
      if (arg === "" || NUMBER_LIKE.test(arg)) return undefined;
      parsed.paths.push(arg);
      continue;
    }
    if (seen.has(arg)) return undefined;
    seen.add(arg);
    if (arg === "--strict") parsed.strict = true;
    else if (arg === "--allow-private-network") parsed["allow-private-network"] = true;
    else if (arg === "--format" && FORMATS.includes(rest[i + 1] ?? "")) parsed.format = rest[++i];
    else return undefined;
  }
  return parsed.paths.length > 0 ? parsed : undefined;
}

async function runValidate(args: ValidateArgs): Promise<number> {
  const { validateCommand, processIo, exitForCommandError } = await quickValidateModule();
  const io = processIo();
  let code = 0;
  const handler = validateCommand(io, (exit) => void (code = exit)).handler as (args: ValidateArgs) => Promise<void>;
  try {
    await handler(args);
  } catch (error) {
    return exitForCommandError(error, io);
  }
  return code;
}

/**
 * src/cli/quick-validate.ts with every module it loads: the build bundles them into one CommonJS
 * file (dist/cli/quick-validate.cjs, scripts/bundle-cli.mjs); without it, the modules as compiled.
 */
async function quickValidateModule(): Promise<typeof import("./quick-validate.js")> {
  const bundled = fileURLToPath(new URL("./quick-validate.cjs", import.meta.url));
  if (existsSync(bundled)) return requireBundled(bundled) as typeof import("./quick-validate.js");
  return import("./quick-validate.js");
}
