import type pg from "pg";
import { POSTGRES_MIGRATIONS } from "./schema.js";

/** The advisory lock that start-ups take to migrate, one process at a time (any fixed number: "scrp" in ASCII). */
export const MIGRATION_LOCK = 0x73637270;

/**
 * Applies pending migrations under a session advisory lock: processes that open a new database at
 * once wait for each other, and each reads the version only once it holds the lock, so every
 * migration is applied once. Each migration commits with its version.
 */
export async function migrate(client: pg.ClientBase): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS scrapeline_schema (version INTEGER NOT NULL)");
    for (;;) {
      const rows = (await client.query<{ version: number }>("SELECT version FROM scrapeline_schema")).rows;
      const version = rows[0]?.version ?? 0;
      if (version > POSTGRES_MIGRATIONS.length) {
        throw new Error(`database schema version ${version} is newer than this scrapeline understands (${POSTGRES_MIGRATIONS.length}); upgrade scrapeline`);
      }
      if (version === POSTGRES_MIGRATIONS.length) return;
      await client.query("BEGIN");
      try {
        await client.query(POSTGRES_MIGRATIONS[version]!);
        if (rows.length === 0) await client.query("INSERT INTO scrapeline_schema (version) VALUES (1)");
        else await client.query("UPDATE scrapeline_schema SET version = $1", [version + 1]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}
