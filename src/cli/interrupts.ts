import { constants } from "node:os";

/** Ctrl-C handling for long commands: the first stops scheduling, the second aborts. */
export interface Interrupts {
  stop: AbortSignal;
  abort: AbortSignal;
  onStop: (callback: () => void) => void;
  /** Stops scheduling as the first Ctrl-C does (the output went away). */
  requestStop: () => void;
  /** The latest signal the process received, if any (a run it interrupted exits 128 + its number). */
  received: () => NodeJS.Signals | undefined;
}

/** After the second signal, what is in flight has this long to end before the process exits anyway. */
export const FORCED_EXIT_AFTER_MS = 10_000;

/** No signal handling: a stop is still honoured when the command asks for one. */
export function quietInterrupts(): Interrupts {
  const stop = new AbortController();
  const callbacks: Array<() => void> = [];
  return {
    stop: stop.signal,
    abort: new AbortController().signal,
    onStop: (callback) => void callbacks.push(callback),
    requestStop: () => {
      if (stop.signal.aborted) return;
      stop.abort();
      for (const callback of callbacks) callback();
    },
    received: () => undefined,
  };
}

/** The exit code of a process a signal ended: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: NodeJS.Signals | undefined): number {
  return 128 + (signal ? (constants.signals[signal] ?? 2) : 2);
}

export interface SignalOptions {
  /** Where the second and the last signal are told about. */
  say: (line: string) => void;
  /** Ends the process at once with `code` (what was committed stays; the run is left resumable). */
  exit: (code: number) => void;
  /** How the work cut short is finished later, told when the process exits at once. */
  finishedBy: string;
}

/**
 * SIGINT and SIGTERM, counted together. The first stops scheduling: pages in flight finish. The
 * second aborts them. A third, or FORCED_EXIT_AFTER_MS after the second when something still does
 * not end, exits at once with 130 (SIGINT) or 143 (SIGTERM): a run always ends on signals.
 */
export function signalInterrupts(options: SignalOptions): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const callbacks: Array<() => void> = [];
  let count = 0;
  let latest: NodeJS.Signals | undefined;
  const stopScheduling = () => {
    count++;
    stop.abort();
    for (const callback of callbacks) callback();
  };
  const exitNow = (why: string) => {
    options.say(`${why}: exiting now; what was stored is kept, and ${options.finishedBy}\n`);
    options.exit(signalExitCode(latest));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    latest = signal;
    if (count === 0) return stopScheduling();
    if (count === 1) {
      count++;
      options.say(`aborting pages in flight (${signal} again to exit now)\n`);
      abort.abort();
      setTimeout(() => exitNow(`work in flight did not end within ${FORCED_EXIT_AFTER_MS / 1000} s of the abort`), FORCED_EXIT_AFTER_MS).unref();
      return;
    }
    exitNow(`${signal} a third time`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    onStop: (callback) => void callbacks.push(callback),
    requestStop: () => void (count === 0 && stopScheduling()),
    received: () => latest,
  };
}
