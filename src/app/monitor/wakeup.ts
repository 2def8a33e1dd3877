/** A sleep that ends early when woken: the watch loop sleeps until its next due time or an event. */
export class Wakeup {
  private wakeCurrent: (() => void) | undefined;
  private pending = false;

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeCurrent = undefined;
        resolve();
      }
      this.wakeCurrent = done;
    });
  }

  /** Ends the current sleep, or the next one at once when none is going on. */
  wake(): void {
    if (this.wakeCurrent) this.wakeCurrent();
    else this.pending = true;
  }
}
