import { describe, expect, it } from "vitest";
import pg from "pg";
import { freshDatabase, postgresMissing, postgresServerUrl } from "../../helpers/postgres.js";

const missing = postgresMissing();
if (missing) console.warn(`PostgreSQL tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)("the test PostgreSQL server", () => {
  it("gives each test an empty database of its own", async () => {
    const [a, b] = [await freshDatabase(), await freshDatabase()];
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    try {
      await client.query("CREATE TABLE t (x int)");
      const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
      expect(tables.rows).toEqual([{ table_name: "t" }]);
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: b });
    await other.connect();
    try {
      expect((await other.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'")).rows[0].n).toBe(0);
    } finally {
      await other.end();
    }
  });

  it("refuses a wrong password over TCP, so a URL's password is really what lets a store in", async () => {
    const url = new URL(postgresServerUrl());
    url.password = "not-the-password";
    const client = new pg.Client({ connectionString: url.toString() });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
    await client.end().catch(() => undefined);
  });
});
