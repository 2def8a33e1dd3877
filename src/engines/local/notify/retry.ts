/** How often a notification is tried, the first wait between tries (doubled each time) and each try's limit. */
export const ATTEMPTS = 3;
export const FIRST_WAIT_MS = 500;
export const TIMEOUT_MS = 10_000;

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface TryOutcome {
  sent: boolean;
  status?: number;
  error?: string;
  /** Asking again will not help (a 4xx other than 408/429, a refused address). */
  final?: boolean;
}

/** Runs `once` until it sends, gives up for good, or ATTEMPTS are spent, with exponential backoff. */
export async function withRetries(once: () => Promise<TryOutcome>, sleep: Sleep): Promise<TryOutcome & { attempts: number }> {
  let outcome: TryOutcome = { sent: false };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(FIRST_WAIT_MS * 2 ** (attempt - 2));
    outcome = await once();
    if (outcome.sent || outcome.final) return { ...withoutFinal(outcome), attempts: attempt };
  }
  return { ...withoutFinal(outcome), attempts: ATTEMPTS };
}

function withoutFinal({ final: _final, ...rest }: TryOutcome): TryOutcome {
  return rest;
}
