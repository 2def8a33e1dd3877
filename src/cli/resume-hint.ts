import { databaseWithoutPassword } from "../app/light.js";

/** The flags of `run` that decide what a resumed run does; the rest (--json) are left out. */
export interface ResumeFlags {
  file: string;
  db?: string;
  var?: readonly string[];
  engine?: string;
  concurrency?: number;
  "allow-private-network"?: boolean;
}

/**
 * The file and the flags that finish a run, as words, kept with the run when it starts: the
 * database (--db, or SCRAPELINE_DATABASE_URL or SCRAPELINE_DB as a flag, since the next shell may
 * not have it; a URL without its password, which is never kept or printed), every --var
 * (secrets' values left out), the engine, the concurrency and --allow-private-network. The
 * environment's other settings (API keys, model and search endpoints) are the user's to keep.
 */
export function resumeWords(flags: ResumeFlags, env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const words = [flags.file];
  const db = flags.db ?? (env.SCRAPELINE_DATABASE_URL || undefined) ?? env.SCRAPELINE_DB;
  if (db !== undefined) words.push("--db", databaseWithoutPassword(db));
  for (const item of flags.var ?? []) words.push("--var", maskSecret(item));
  if (flags.engine) words.push("--engine", flags.engine);
  if (flags.concurrency !== undefined) words.push("--concurrency", String(flags.concurrency));
  if (flags["allow-private-network"]) words.push("--allow-private-network");
  return words;
}

/** The command that finishes run `runId`: its file and flags (resumeWords) with --resume <id>. */
export function resumeCommand(runId: number, words: readonly string[]): string {
  const [file, ...flags] = words;
  return ["scrapeline", "run", file ?? "", "--resume", String(runId), ...flags].map(shellWord).join(" ");
}

/** What a run that did not succeed can do next; --resume carries on from where it stopped. */
function resumeHint(status: string): string | undefined {
  if (status === "interrupted") return "was interrupted; to finish it";
  if (status === "budget-exhausted") return "stopped at its budget; raise budget.maxCredits, then finish it";
  if (status === "failed") return "failed; once the cause is fixed, retry what failed (stored pages are kept)";
  return undefined;
}

/**
 * "run 4 was interrupted; to finish it: scrapeline run …", the same line wherever a run is told
 * (its own end, runs, show); undefined for a run that succeeded or is still going. The words are
 * the ones kept with the run; a run started before they were kept (or by watch) is told with its
 * file and the database it was read from (`db`).
 */
export function resumeLine(run: { id: number; status: string; pipelineFile?: string; resumeWords?: readonly string[] }, db: string | undefined): string | undefined {
  const hint = resumeHint(run.status);
  if (!hint) return undefined;
  const words = run.resumeWords ?? [run.pipelineFile ?? "", ...(db !== undefined ? ["--db", databaseWithoutPassword(db)] : [])];
  return `run ${run.id} ${hint}: ${resumeCommand(run.id, words)}`;
}

/** Names of variables whose values are secrets: the hint names them and leaves the value for the user to give again. */
const SECRET_NAME = /key|token|secret|pass|auth|cookie|credential|session/i;

/** `NAME=value`, with the value left out (as `NAME=…`) when the name says it is a secret: hints end up in logs. */
function maskSecret(item: string): string {
  const eq = item.indexOf("=");
  return eq > 0 && SECRET_NAME.test(item.slice(0, eq)) ? `${item.slice(0, eq + 1)}…` : item;
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
