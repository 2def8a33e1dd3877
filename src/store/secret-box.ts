import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** The environment variable the keys of everything kept encrypted are derived from. */
export const SECRET_KEY_ENV = "SCRAPELINE_SECRET_KEY";

/** One AES-256-GCM ciphertext with its random IV and authentication tag. */
export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** A 32-byte key derived (HKDF SHA-256) from the secret, one per salt and purpose (`info`). */
export function deriveKey(secret: string, salt: string, info: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), salt, info, 32));
}

/** Encrypts `plain` with AES-256-GCM under a fresh random IV; `context` is authenticated with it. */
export function seal(key: Buffer, plain: string, context: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** The plain text of a sealed value; throws when the key or the context is not the one it was sealed with. */
export function unseal(key: Buffer, sealed: Sealed, context: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.iv);
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
}

const TEXT_PREFIX = "aes-256-gcm:";

/**
 * A secret kept inside a JSON column: sealed as `aes-256-gcm:IV.TAG.CIPHERTEXT` (base64url), under
 * a key derived for one purpose, bound to the row's `context` so it cannot be moved to another row.
 */
export class TextSealer {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = deriveKey(secret, "scrapeline secrets", purpose);
  }

  /** Whether a text is a sealed value (of any key). */
  static isSealed(text: unknown): text is string {
    return typeof text === "string" && text.startsWith(TEXT_PREFIX);
  }

  seal(plain: string, context: string): string {
    const { iv, tag, ciphertext } = seal(this.key, plain, context);
    return `${TEXT_PREFIX}${[iv, tag, ciphertext].map((b) => b.toString("base64url")).join(".")}`;
  }

  /** The plain text, or undefined when it was sealed under another key or for another row. */
  open(text: string, context: string): string | undefined {
    const parts = text.startsWith(TEXT_PREFIX) ? text.slice(TEXT_PREFIX.length).split(".") : [];
    if (parts.length !== 3) return undefined;
    const [iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, "base64url")) as [Buffer, Buffer, Buffer];
    try {
      return unseal(this.key, { iv, tag, ciphertext }, context);
    } catch {
      return undefined;
    }
  }
}
