/** Ctrl-C handling for long commands: the first stops scheduling, the second aborts. */
export interface Interrupts {
  stop: AbortSignal;
  abort: AbortSignal;
  onStop: (callback: () => void) => void;
  /** Stops scheduling as the first Ctrl-C does (the output went away). */
  requestStop: () => void;
}

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
  };
}
