import { SECRET_KEY_ENV, TextSealer } from "../../store/index.js";
import { bad, targetHeaders, type MonitorDefinition, type MonitorTarget } from "./body.js";

type Webhook = NonNullable<MonitorDefinition["webhook"]>;

/**
 * A definition as the monitors table keeps it: the webhook's secret sealed (`sealedSecret`) and
 * each header value of its targets sealed in place, never in clear. Rows written before these
 * were sealed hold them in clear; they are read as they are and sealed when the monitor is next
 * changed on a server with a key.
 */
export type StoredDefinition = Omit<MonitorDefinition, "webhook"> & { webhook?: Omit<Webhook, "secret"> & { secret?: string; sealedSecret?: string } };

/** A definition read back, with why a credential of it could not be opened (it is then left sealed). */
export interface OpenedDefinition {
  definition: MonitorDefinition;
  unreadable?: string;
}

const NO_KEY = `cannot be kept: this server has no ${SECRET_KEY_ENV} to encrypt it with (start scrapeline serve with ${SECRET_KEY_ENV} set, or leave it out)`;

/** Seals and opens the credentials of serve's monitors (webhook secret, request headers) with a key from SCRAPELINE_SECRET_KEY. */
export class MonitorSecrets {
  private readonly sealer: TextSealer | undefined;

  constructor(env: Readonly<Record<string, string | undefined>>) {
    const secret = env[SECRET_KEY_ENV];
    this.sealer = secret ? new TextSealer(secret, "monitor credentials") : undefined;
  }

  /**
   * What to store for `definition` of the monitor `key`. With `kept`, the webhook is the one stored
   * before (the request did not change it) and its secret is kept as stored: sealed, or sealed now
   * when it was in clear and there is a key. A header value still sealed is kept as it is. A new
   * credential without a key is a 400; one `previous` already held in clear is kept so.
   */
  toStored(key: string, definition: MonitorDefinition, options: { kept?: StoredDefinition["webhook"]; previous?: StoredDefinition } = {}): StoredDefinition {
    const targets = definition.targets.map((target, i) => this.sealHeaders(key, target, i, options.previous));
    const stored: StoredDefinition = { ...definition, targets };
    if (!definition.webhook) return stored;
    const { kept } = options;
    const { secret, ...webhook } = definition.webhook;
    if (kept?.sealedSecret !== undefined) return { ...stored, webhook: { ...webhook, sealedSecret: kept.sealedSecret } };
    if (secret === undefined) return { ...stored, webhook };
    if (this.sealer) return { ...stored, webhook: { ...webhook, sealedSecret: this.sealer.seal(secret, key) } };
    if (kept?.secret === secret) return { ...stored, webhook: definition.webhook };
    throw bad("webhook.secret", NO_KEY);
  }

  /** The stored definition of the monitor `key` with its credentials in clear. */
  open(key: string, stored: StoredDefinition): OpenedDefinition {
    let unreadable: string | undefined;
    const targets = stored.targets.map((target) => {
      const headers = targetHeaders(target);
      if (!headers || !Object.values(headers).some((v) => TextSealer.isSealed(v))) return target;
      const opened = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => {
          if (!TextSealer.isSealed(value)) return [name, value];
          const plain = this.sealer?.open(value, headerContext(key, name));
          if (plain === undefined) unreadable ??= this.cannotOpen("a request header");
          return [name, plain ?? value];
        }),
      );
      return { ...target, scrapeOptions: { ...target.scrapeOptions, headers: opened } } as MonitorTarget;
    });
    const definition = { ...stored, targets } as MonitorDefinition;
    if (stored.webhook?.sealedSecret === undefined) return { definition, ...(unreadable ? { unreadable } : {}) };
    const { sealedSecret, secret: _clear, ...webhook } = stored.webhook;
    const secret = this.sealer?.open(sealedSecret, key);
    if (secret !== undefined) return { definition: { ...definition, webhook: { ...webhook, secret } }, ...(unreadable ? { unreadable } : {}) };
    return { definition: { ...definition, webhook }, unreadable: unreadable ?? this.cannotOpen("the webhook secret") };
  }

  private cannotOpen(what: string): string {
    return this.sealer
      ? `${what} of this monitor cannot be decrypted with this ${SECRET_KEY_ENV} (it was stored under another); set it again`
      : `${what} of this monitor is stored encrypted and this server has no ${SECRET_KEY_ENV} to decrypt it`;
  }

  private sealHeaders(key: string, target: MonitorTarget, i: number, previous: StoredDefinition | undefined): MonitorTarget {
    const headers = targetHeaders(target);
    if (!headers) return target;
    const before = previous?.targets[i] ? targetHeaders(previous.targets[i]!) : undefined;
    const sealed = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => {
        if (typeof value !== "string" || value === "" || TextSealer.isSealed(value)) return [name, value];
        if (this.sealer) return [name, this.sealer.seal(value, headerContext(key, name))];
        if (before?.[name] === value) return [name, value];
        throw bad(`targets[${i}].scrapeOptions.headers.${name}`, NO_KEY);
      }),
    );
    return { ...target, scrapeOptions: { ...target.scrapeOptions, headers: sealed } } as MonitorTarget;
  }
}

/** What a sealed header value is bound to: its monitor and its name. */
const headerContext = (key: string, name: string) => `${key}\nheader ${name}`;

/** Whether a stored definition's webhook signs what it sends. */
export function isSigned(stored: StoredDefinition): boolean {
  return Boolean(stored.webhook?.secret || stored.webhook?.sealedSecret);
}
