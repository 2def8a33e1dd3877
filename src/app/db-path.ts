import { resolve } from "node:path";

export const DEFAULT_DB = "data/scrapeline.db";

/** A PostgreSQL connection URL (`postgres://…` or `postgresql://…`); anything else names a SQLite file. */
export function isDatabaseUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/**
 * The database: --db, else SCRAPELINE_DATABASE_URL, else SCRAPELINE_DB, else data/scrapeline.db. A
 * PostgreSQL URL is kept as written; a file path is made absolute (relative to the working directory).
 */
export function databasePath(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const db = flag ?? (env.SCRAPELINE_DATABASE_URL || undefined) ?? env.SCRAPELINE_DB ?? DEFAULT_DB;
  return isDatabaseUrl(db) ? db : resolve(db);
}

/** Where the password of a database URL stood, when it is shown. */
const HIDDEN = "***";

/**
 * The database as it may be shown (logs, errors, hints, the UI): a URL's password, in its user
 * part or as a `password` parameter, is replaced by ***; a file path is unchanged.
 */
export function redactDatabaseUrl(db: string): string {
  if (!isDatabaseUrl(db)) return db;
  let url: URL;
  try {
    url = new URL(db);
  } catch {
    // Not a URL this can take apart: whatever follows the scheme's user part may be a password.
    return db.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/i, `$1:${HIDDEN}@`).replace(/([?&]password=)[^&]*/gi, `$1${HIDDEN}`);
  }
  if (url.password) url.password = HIDDEN;
  for (const key of [...url.searchParams.keys()]) if (key.toLowerCase() === "password") url.searchParams.set(key, HIDDEN);
  return url.toString();
}

/**
 * A database URL without its password, for a command to keep and print (a resume hint): the
 * password is then taken from PGPASSWORD or ~/.pgpass, as PostgreSQL's own tools do. A file path
 * is unchanged.
 */
export function databaseWithoutPassword(db: string): string {
  if (!isDatabaseUrl(db)) return db;
  try {
    const url = new URL(db);
    url.password = "";
    for (const key of [...url.searchParams.keys()]) if (key.toLowerCase() === "password") url.searchParams.delete(key);
    return url.toString();
  } catch {
    return redactDatabaseUrl(db);
  }
}
