import { resolve } from "node:path";

export const DEFAULT_DB = "data/scrapeline.db";

/** The database path: --db, else SCRAPELINE_DB, else data/scrapeline.db (relative to the working directory). */
export function databasePath(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return resolve(flag ?? env.SCRAPELINE_DB ?? DEFAULT_DB);
}
