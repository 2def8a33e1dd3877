/** The flags of `run` that decide what a resumed run does; the rest (--json) are left out. */
export interface ResumeFlags {
  file: string;
  db?: string;
  var?: readonly string[];
  engine?: string;
  concurrency?: number;
  "allow-private-network"?: boolean;
}

/** The command that finishes run `runId`: the same file, database and flags, with --resume <id>. */
export function resumeCommand(runId: number, flags: ResumeFlags): string {
  const words = ["scrapeline", "run", flags.file, "--resume", String(runId)];
  if (flags.db !== undefined) words.push("--db", flags.db);
  for (const item of flags.var ?? []) words.push("--var", maskSecret(item));
  if (flags.engine) words.push("--engine", flags.engine);
  if (flags.concurrency !== undefined) words.push("--concurrency", String(flags.concurrency));
  if (flags["allow-private-network"]) words.push("--allow-private-network");
  return words.map(shellWord).join(" ");
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
