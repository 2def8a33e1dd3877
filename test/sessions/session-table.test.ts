import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionState } from "../../src/core/index.js";
import pg from "pg";
import { PostgresStore, SessionTable, SqliteStore } from "../../src/store/index.js";
import { freshDatabase, postgresMissing } from "../helpers/postgres.js";
import { workdir } from "../run/helpers.js";

const state: SessionState = { cookies: [{ name: "sid", value: "token-9f8e7d6c5b4a", domain: "shop.test", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }], origins: [{ origin: "http://shop.test", localStorage: [{ name: "jwt", value: "storage-secret-1234" }] }] };
const LOGIN = JSON.stringify(["pipeline", "members", "http://shop.test/login", [{ type: "write", text: "the-password-5678" }]]);

describe("the session state table", () => {
  it("keeps a state encrypted under a keyed name, and gives it back with the same key only", () => {
    const db = join(workdir(), "s.db");
    const store = new SqliteStore(db);
    const table = new SessionTable(store.db, "key-one");
    expect(table.keeps).toBe(true);
    table.save(LOGIN, state, Date.parse("2026-01-01T00:00:00Z"));
    expect(table.load(LOGIN)).toEqual({ state, savedAt: Date.parse("2026-01-01T00:00:00Z") });
    expect(new SessionTable(store.db, "key-two").load(LOGIN)).toBeUndefined();
    expect(table.load(LOGIN.replace("members", "other"))).toBeUndefined();
    // Ciphertext moved to another login's row does not decrypt: the name is authenticated with it.
    table.save("another login", state, 0);
    store.db.prepare("UPDATE session_states SET iv = (SELECT iv FROM session_states s2 WHERE s2.key_hash != session_states.key_hash), tag = (SELECT tag FROM session_states s2 WHERE s2.key_hash != session_states.key_hash), ciphertext = (SELECT ciphertext FROM session_states s2 WHERE s2.key_hash != session_states.key_hash)").run();
    expect(table.load(LOGIN)).toBe("unreadable");
    table.forget(LOGIN);
    expect(table.load(LOGIN)).toBeUndefined();
    store.close();
    const bytes = readFileSync(db).toString("latin1");
    for (const secret of ["token-9f8e7d6c5b4a", "storage-secret-1234", "the-password-5678", "members", "shop.test"]) expect(bytes.includes(secret), secret).toBe(false);
  });

  it("keeps nothing without a key", () => {
    const store = new SqliteStore(":memory:");
    const table = new SessionTable(store.db, undefined);
    expect(table.keeps).toBe(false);
    table.save(LOGIN, state, 0);
    expect(table.load(LOGIN)).toBeUndefined();
    expect(store.db.prepare("SELECT COUNT(*) FROM session_states").pluck().get()).toBe(0);
    store.close();
  });
});

const pgMissing = postgresMissing();
describe.skipIf(pgMissing !== undefined)("the session state table on PostgreSQL", () => {
  it("keeps a state encrypted under a keyed name, gives it back with the same key only, and not once moved to another login", async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(url);
    try {
      const table = store.sessions("key-one");
      expect(table.keeps).toBe(true);
      table.save(LOGIN, state, Date.parse("2026-01-01T00:00:00Z"));
      expect(table.load(LOGIN)).toEqual({ state, savedAt: Date.parse("2026-01-01T00:00:00Z") });
      expect(store.sessions("key-two").load(LOGIN)).toBeUndefined();
      expect(store.sessions(undefined).load(LOGIN)).toBeUndefined();
      table.save("another login", state, 0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const stored = (await client.query("SELECT key_hash, iv, tag, ciphertext FROM session_states")).rows as Array<{ key_hash: string; iv: Buffer; tag: Buffer; ciphertext: Buffer }>;
        expect(stored).toHaveLength(2);
        const bytes = stored.map((r) => `${r.key_hash}${Buffer.concat([r.iv, r.tag, r.ciphertext]).toString("latin1")}`).join("");
        for (const secret of ["token-9f8e7d6c5b4a", "storage-secret-1234", "the-password-5678", "members", "shop.test"]) expect(bytes.includes(secret), secret).toBe(false);
        await client.query("UPDATE session_states s SET iv = o.iv, tag = o.tag, ciphertext = o.ciphertext FROM session_states o WHERE o.key_hash <> s.key_hash");
      } finally {
        await client.end();
      }
      expect(table.load(LOGIN)).toBe("unreadable");
      table.forget(LOGIN);
      expect(table.load(LOGIN)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
