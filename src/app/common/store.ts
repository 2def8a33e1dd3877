import { existsSync } from "node:fs";
import { PostgresStore, SqliteStore, type RunsStore, type SqliteStoreOptions } from "../../store/index.js";
import { ScrapelineError } from "../../core/index.js";
import { isDatabaseUrl, redactDatabaseUrl } from "../db-path.js";


/**
 * Pages a run saves before a writer thread commits the rest while the run fetches on: a short run
 * does not pay for starting the thread.
 */
export const RUN_WRITER_AFTER = 32;

/**
 * Opens the store of runs, pages and change histories: PostgreSQL for a postgres:// URL, else the
 * SQLite file. Failures say which database (a URL's password hidden) and what to do.
 */
export function openRunStore(db: string, options: SqliteStoreOptions = {}): RunsStore {
  return isDatabaseUrl(db) ? openPostgresStore(db, options) : openStore(db, options);
}

/** openRunStore for commands that only read: a mistyped --db file is reported, never created. */
export function openExistingRunStore(db: string, options: SqliteStoreOptions = {}): RunsStore {
  return isDatabaseUrl(db) ? openPostgresStore(db, options) : openExistingStore(db, options);
}

/** Opens the SQLite store (recipe tests read their runs back from it), turning SQLite's failures into errors that say which file and what to do. */
export function openStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  if (isDatabaseUrl(path)) {
    // A recipe's test runs are read back from the SQLite file they were made in.
    throw new ScrapelineError("invalid-input", `this needs a SQLite database file, not ${redactDatabaseUrl(path)}. Give --db a file.`);
  }
  try {
    return new SqliteStore(path, options);
  } catch (error) {
    const message = (error as Error).message;
    const code = (error as { code?: string }).code ?? "";
    if (code === "SQLITE_NOTADB" || /not a database/i.test(message)) {
      throw new ScrapelineError("invalid-input", `${path} is not a scrapeline database (or it is corrupt); nothing was changed. Use --db to choose another file.`, { cause: error });
    }
    if (code === "SQLITE_READONLY" || code === "SQLITE_CANTOPEN" || /readonly|unable to open/i.test(message)) {
      throw new ScrapelineError("invalid-input", `cannot write the database ${path}: ${message}. Check its permissions or use --db.`, { cause: error });
    }
    throw new ScrapelineError("internal", `cannot open the database ${path}: ${message}`, { cause: error });
  }
}

/**
 * Opens a database that must already exist, for commands that only read: a mistyped --db is
 * reported, never created (with its folder) as an empty database.
 */
export function openExistingStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  if (path !== ":memory:" && !isDatabaseUrl(path) && !existsSync(path)) {
    throw new ScrapelineError("invalid-input", `no database at ${path}: nothing has been run with it yet. Check --db (or $SCRAPELINE_DB).`);
  }
  return openStore(path, options);
}

/** Opens the PostgreSQL store; its failures name the database with its password hidden, and say what to do. */
function openPostgresStore(url: string, options: SqliteStoreOptions): PostgresStore {
  try {
    return new PostgresStore(url, options.now ? { now: options.now } : {});
  } catch (error) {
    const shown = redactDatabaseUrl(url);
    const code = (error as { code?: string }).code ?? "";
    const message = hidePassword((error as Error).message, url);
    if (code === "28P01" || code === "28000") throw new ScrapelineError("invalid-input", `cannot sign in to the database ${shown}: ${message}. Check the URL's user and password (or PGPASSWORD).`);
    if (code === "3D000") throw new ScrapelineError("invalid-input", `no database ${shown}: ${message}. Create it first (createdb), or check --db.`);
    if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|timeout/i.test(`${code} ${message}`)) {
      throw new ScrapelineError("invalid-input", `cannot reach the database ${shown}: ${message}. Check the host and port in --db, and that PostgreSQL is running.`);
    }
    throw new ScrapelineError("internal", `cannot open the database ${shown}: ${message}`);
  }
}

/** A message with the URL's password taken out, should a library have quoted it. */
function hidePassword(message: string, url: string): string {
  let password = "";
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL that parses: redactDatabaseUrl hides what it can of it.
  }
  const hidden = password ? message.split(password).join("***") : message;
  return hidden.split(url).join(redactDatabaseUrl(url));
}
