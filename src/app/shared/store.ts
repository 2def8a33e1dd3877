import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SqliteStore, type SqliteStoreOptions } from "../../store/index.js";
import { ScrapelineError } from "../../core/index.js";

/**
 * Pages a run saves before a writer thread commits the rest while the run fetches on: a short run
 * does not pay for starting the thread.
 */
export const RUN_WRITER_AFTER = 32;

/** Opens the store, turning SQLite's failures into errors that say which file and what to do. */
export function openStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
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
  if (path !== ":memory:" && !existsSync(path)) {
    throw new ScrapelineError("invalid-input", `no database at ${path}: nothing has been run with it yet. Check --db (or $SCRAPELINE_DB).`);
  }
  return openStore(path, options);
}
