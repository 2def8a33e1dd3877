import type Database from "better-sqlite3";

/**
 * Makes `db.prepare` return one compiled statement per SQL text instead of compiling it on every
 * call (compiling dominates short writes). A statement comes back with pluck off, so a call site
 * that plucks and one that does not can share the text.
 */
export function cacheStatements(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement.reader ? statement.pluck(false) : statement;
  }) as Database.Database["prepare"];
}
