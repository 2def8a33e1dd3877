import { isScrapelineError } from "../../../core/index.js";
import { createAddressPolicy, parseHttpUrl, resolveTarget, systemResolve } from "../fetch/index.js";

/** How long resolving a notification target's host may take when it is checked ahead of sending. */
const RESOLVE_TIMEOUT_MS = 10_000;

/**
 * Why the network policy would refuse to send to `url` (a loopback, private or other non-public
 * address, in the words the fetch gate refuses it with), or undefined when it would not. A host
 * that does not resolve now is not refused: it is checked again when a notification is sent.
 */
export async function refusedNotifyTarget(url: string, options: { allowPrivateNetwork: boolean; resolve?: (hostname: string) => Promise<string[]> }): Promise<string | undefined> {
  if (options.allowPrivateNetwork) return undefined;
  try {
    await resolveTarget(parseHttpUrl(url), { policy: createAddressPolicy(), allowPrivateNetwork: false, resolve: options.resolve ?? systemResolve, signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS) });
    return undefined;
  } catch (error) {
    return isScrapelineError(error, "blocked") ? error.message : undefined;
  }
}
