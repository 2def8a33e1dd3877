import { isIP, type LookupFunction } from "node:net";

/**
 * The addresses each hostname was checked against. The gate's connections resolve through
 * `lookup`, which answers only from here, so a socket can only open to an address that passed
 * the check: a DNS answer that changes between check and connect is never seen.
 */
export class PinnedAddresses {
  private readonly pins = new Map<string, string[]>();

  /** Records the checked addresses of `hostname`, replacing older ones. */
  pin(hostname: string, addresses: string[]): void {
    this.pins.set(hostname.toLowerCase(), addresses);
  }

  /** Forgets every pin. */
  clear(): void {
    this.pins.clear();
  }

  /** A net.connect lookup that answers from the pins and fails for any name not checked. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const addresses = this.pins.get(hostname.toLowerCase());
    if (!addresses || addresses.length === 0) {
      const error = Object.assign(new Error(`${hostname} was not checked before connecting`), { code: "ENOTFOUND" });
      callback(error, "", 0);
      return;
    }
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const answers = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((a) => wanted === 0 || a.family === wanted);
    if (options.all) {
      (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, answers);
      return;
    }
    const first = answers[0];
    if (!first) {
      callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: "ENOTFOUND" }), "", 0);
      return;
    }
    callback(null, first.address, first.family);
  };
}
