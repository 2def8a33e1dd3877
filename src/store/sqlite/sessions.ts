import type Database from "better-sqlite3";
import { SealedSessions, type SealedSessionRow } from "../session-vault.js";

/** Session states in the SQLite `session_states` table (see ../session-vault.ts for how they are sealed). */
export class SessionTable extends SealedSessions {
  constructor(db: Database.Database, secret: string | undefined) {
    super(
      {
        get: (keyHash) => db.prepare("SELECT iv, tag, ciphertext, saved_at FROM session_states WHERE key_hash = ?").get(keyHash) as SealedSessionRow | undefined,
        put: (keyHash, row) =>
          void db
            .prepare("INSERT INTO session_states (key_hash, iv, tag, ciphertext, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, saved_at = excluded.saved_at")
            .run(keyHash, row.iv, row.tag, row.ciphertext, row.saved_at),
        delete: (keyHash) => void db.prepare("DELETE FROM session_states WHERE key_hash = ?").run(keyHash),
      },
      secret,
    );
  }
}
