import { createHmac } from "node:crypto";
import type { SessionState, SessionVault } from "../core/index.js";
import { deriveKey, seal, unseal } from "./secret-box.js";

const SALT = "scrapeline session states";

/** A kept login as its row holds it: ciphertext, its IV and tag, and when it was saved. */
export interface SealedSessionRow {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  saved_at: string;
}

/** Where a store keeps the rows of `session_states`, by keyed-hash name. */
export interface SessionRows {
  get(keyHash: string): SealedSessionRow | undefined;
  put(keyHash: string, row: SealedSessionRow): void;
  delete(keyHash: string): void;
}

interface Keys {
  cipher: Buffer;
  names: Buffer;
}

/**
 * Session states AES-256-GCM encrypted with a key derived (HKDF SHA-256) from the secret; each row
 * has a random IV, and its keyed-hash name is authenticated with it, so a row cannot be moved to
 * another login. Without a secret nothing is kept. The rows are the store's (SQLite or PostgreSQL).
 */
export class SealedSessions implements SessionVault {
  readonly keeps: boolean;
  private readonly keys: Keys | undefined;

  constructor(
    private readonly rows: SessionRows,
    secret: string | undefined,
  ) {
    this.keys = secret ? deriveKeys(secret) : undefined;
    this.keeps = this.keys !== undefined;
  }

  load(id: string): { state: SessionState; savedAt: number } | "unreadable" | undefined {
    if (!this.keys) return undefined;
    const hash = this.name(this.keys, id);
    const row = this.rows.get(hash);
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
    this.rows.put(hash, { iv, tag, ciphertext, saved_at: new Date(savedAt).toISOString() });
  }

  forget(id: string): void {
    if (!this.keys) return;
    this.rows.delete(this.name(this.keys, id));
  }

  private name(keys: Keys, id: string): string {
    return createHmac("sha256", keys.names).update(id).digest("hex");
  }
}

function deriveKeys(secret: string): Keys {
  return { cipher: deriveKey(secret, SALT, "aes-256-gcm state key"), names: deriveKey(secret, SALT, "hmac name key") };
}
