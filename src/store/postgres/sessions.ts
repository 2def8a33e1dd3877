// The rows of kept session logins on PostgreSQL (sealed and opened by ../session-vault.ts on the calling thread).
import type { SealedSessionRow } from "../session-vault.js";
import { row, run, type Tx } from "./sql.js";

export async function sessionGet(tx: Tx, keyHash: string): Promise<SealedSessionRow | undefined> {
  return (await row(tx, "SELECT iv, tag, ciphertext, saved_at FROM session_states WHERE key_hash = $1", [keyHash])) as SealedSessionRow | undefined;
}

export async function sessionPut(tx: Tx, keyHash: string, sealed: SealedSessionRow): Promise<void> {
  await run(
    tx,
    `INSERT INTO session_states (key_hash, iv, tag, ciphertext, saved_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key_hash) DO UPDATE SET iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, saved_at = excluded.saved_at`,
    [keyHash, Buffer.from(sealed.iv), Buffer.from(sealed.tag), Buffer.from(sealed.ciphertext), sealed.saved_at],
  );
}

export async function sessionDelete(tx: Tx, keyHash: string): Promise<void> {
  await run(tx, "DELETE FROM session_states WHERE key_hash = $1", [keyHash]);
}
