import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteServeTables, SqliteStore } from "../../src/store/index.js";

/** The serve claim on a database is decided like a run's owner: by host, pid and the process's start time. */
describe("a server's claim on its database", () => {
  const fresh = () => {
    const store = new SqliteStore(join(mkdtempSync(join(tmpdir(), "scrapeline-owner-")), "s.db"));
    return { store, tables: new SqliteServeTables(store.db) };
  };
  const hold = (tables: SqliteServeTables, pid: number, token: string) =>
    tables["db"].prepare("INSERT OR REPLACE INTO serve_owner (id, pid, host, token, started_at) VALUES (1, ?, ?, ?, 'then')").run(pid, hostname(), token);

  it("is taken over from a pid that now belongs to a process started later", () => {
    const { store, tables } = fresh();
    // This process's pid, but another start: the server that held it is gone.
    hold(tables, process.pid, "0:1|old-server");
    expect(tables.claimServer("new-server")).toBeUndefined();
    store.close();
  });

  it("is refused while the holding server's process still runs, and released by its own token only", () => {
    const { store, tables } = fresh();
    expect(tables.claimServer("first")).toBeUndefined();
    expect(tables.claimServer("second")).toMatchObject({ pid: process.pid, host: hostname() });
    tables.releaseServer("second");
    expect(tables.claimServer("second")).toMatchObject({ pid: process.pid });
    tables.releaseServer("first");
    expect(tables.claimServer("second")).toBeUndefined();
    store.close();
  });
});
