import { SECRET_KEY_ENV, TextSealer } from "../store/index.js";
import { bad, type MonitorDefinition } from "./monitor-body.js";

type Webhook = NonNullable<MonitorDefinition["webhook"]>;

/**
 * A definition as the monitors table keeps it: the webhook's secret sealed (`sealedSecret`), never
 * in clear. Rows written before secrets were sealed hold it in clear (`secret`); they are read as
 * they are and sealed when the monitor is next changed on a server with a key.
 */
export type StoredDefinition = Omit<MonitorDefinition, "webhook"> & { webhook?: Omit<Webhook, "secret"> & { secret?: string; sealedSecret?: string } };

/** A definition read back, with why its webhook secret could not be opened (it is then left out). */
export interface OpenedDefinition {
  definition: MonitorDefinition;
  unreadable?: string;
}

/** Seals and opens the webhook secrets of serve's monitors with a key from SCRAPELINE_SECRET_KEY. */
export class MonitorSecrets {
  private readonly sealer: TextSealer | undefined;

  constructor(env: Readonly<Record<string, string | undefined>>) {
    const secret = env[SECRET_KEY_ENV];
    this.sealer = secret ? new TextSealer(secret, "monitor webhook secret") : undefined;
  }

  /**
   * What to store for `definition` of the monitor `key`. With `kept`, the webhook is the one stored
   * before (the request did not change it) and its secret is kept as stored: sealed, or sealed now
   * when it was in clear and there is a key. A new secret without a key is a 400.
   */
  toStored(key: string, definition: MonitorDefinition, kept?: StoredDefinition["webhook"]): StoredDefinition {
    if (!definition.webhook) return definition;
    const { secret, ...webhook } = definition.webhook;
    if (kept?.sealedSecret !== undefined) return { ...definition, webhook: { ...webhook, sealedSecret: kept.sealedSecret } };
    if (secret === undefined) return { ...definition, webhook };
    if (this.sealer) return { ...definition, webhook: { ...webhook, sealedSecret: this.sealer.seal(secret, key) } };
    if (kept?.secret === secret) return definition;
    throw bad("webhook.secret", `cannot be kept: this server has no ${SECRET_KEY_ENV} to encrypt it with (start scrapeline serve with ${SECRET_KEY_ENV} set, or leave the secret out)`);
  }

  /** The stored definition of the monitor `key` with its webhook secret in clear. */
  open(key: string, stored: StoredDefinition): OpenedDefinition {
    if (stored.webhook?.sealedSecret === undefined) return { definition: stored as MonitorDefinition };
    const { sealedSecret, secret: _clear, ...webhook } = stored.webhook;
    const secret = this.sealer?.open(sealedSecret, key);
    if (secret !== undefined) return { definition: { ...stored, webhook: { ...webhook, secret } } };
    const unreadable = this.sealer
      ? `the webhook secret of this monitor cannot be decrypted with this ${SECRET_KEY_ENV} (it was stored under another); set the webhook again`
      : `the webhook secret of this monitor is stored encrypted and this server has no ${SECRET_KEY_ENV} to decrypt it`;
    return { definition: { ...stored, webhook }, unreadable };
  }
}

/** Whether a stored definition's webhook signs what it sends. */
export function isSigned(stored: StoredDefinition): boolean {
  return Boolean(stored.webhook?.secret || stored.webhook?.sealedSecret);
}
