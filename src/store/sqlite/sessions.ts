import { createHmac } from "node:crypto";
import type Database from "better-sqlite3";
import type { SessionState, SessionVault } from "../../core/index.js";
import { deriveKey, seal, unseal } from "../secret-box.js";

const SALT = "scrapeline session states";

interface Keys {
  cipher: Buffer;
  names: Buffer;
}

/**
 * Session states in the `session_states` table, AES-256-GCM encrypted with a key derived (HKDF
 * SHA-256) from the secret; each row has a random IV, and its keyed-hash name is authenticated
 * with it, so a row cannot be moved to another login. Without a secret nothing is kept.
 */
export class SessionTable implements SessionVault {
  readonly keeps: boolean;
  private readonly keys: Keys | undefined;

  constructor(
    private readonly db: Database.Database,
    secret: string | undefined,
  ) {
    this.keys = secret ? deriveKeys(secret) : undefined;
    this.keeps = this.keys !== undefined;
  }

  load(id: string): { state: SessionState; savedAt: number } | "unreadable" | undefined {
    if (!this.keys) return undefined;
    const hash = this.name(this.keys, id);
    const row = this.db.prepare("SELECT iv, tag, ciphertext, saved_at FROM session_states WHERE key_hash = ?").get(hash) as { iv: Buffer; tag: Buffer; ciphertext: Buffer; saved_at: string } | undefined;
    if (!row) return undefined;
    try {
      const plain = unseal(this.keys.cipher, row, hash);
      return { state: JSON.parse(plain) as SessionState, savedAt: Date.parse(row.saved_at) };
    } catch {
      return "unreadable";
    }
  }

  save(id: string, state: SessionState, savedAt: number): void {
    if (!this.keys) return;
    const hash = this.name(this.keys, id);
    const { iv, tag, ciphertext } = seal(this.keys.cipher, JSON.stringify(state), hash);
    this.db
      .prepare("INSERT INTO session_states (key_hash, iv, tag, ciphertext, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, saved_at = excluded.saved_at")
      .run(hash, iv, tag, ciphertext, new Date(savedAt).toISOString());
  }

  forget(id: string): void {
    if (!this.keys) return;
    this.db.prepare("DELETE FROM session_states WHERE key_hash = ?").run(this.name(this.keys, id));
  }

  private name(keys: Keys, id: string): string {
    return createHmac("sha256", keys.names).update(id).digest("hex");
  }
}

function deriveKeys(secret: string): Keys {
  return { cipher: deriveKey(secret, SALT, "aes-256-gcm state key"), names: deriveKey(secret, SALT, "hmac name key") };
}
