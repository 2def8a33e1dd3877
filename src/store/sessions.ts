import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { SessionState, SessionVault } from "../core/index.js";

/** The environment variable the key of kept sessions is derived from. */
export const SECRET_KEY_ENV = "SCRAPELINE_SECRET_KEY";

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
      const decipher = createDecipheriv("aes-256-gcm", this.keys.cipher, row.iv);
      decipher.setAAD(Buffer.from(hash));
      decipher.setAuthTag(row.tag);
      const plain = Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString("utf8");
      return { state: JSON.parse(plain) as SessionState, savedAt: Date.parse(row.saved_at) };
    } catch {
      return "unreadable";
    }
  }

  save(id: string, state: SessionState, savedAt: number): void {
    if (!this.keys) return;
    const hash = this.name(this.keys, id);
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keys.cipher, iv);
    cipher.setAAD(Buffer.from(hash));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(state), "utf8"), cipher.final()]);
    this.db
      .prepare("INSERT INTO session_states (key_hash, iv, tag, ciphertext, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET iv = excluded.iv, tag = excluded.tag, ciphertext = excluded.ciphertext, saved_at = excluded.saved_at")
      .run(hash, iv, cipher.getAuthTag(), ciphertext, new Date(savedAt).toISOString());
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
  const key = (info: string) => Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), SALT, info, 32));
  return { cipher: key("aes-256-gcm state key"), names: key("hmac name key") };
}
