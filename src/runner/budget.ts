/**
 * Credits already spent plus credits reserved by requests in flight. A request may start only if
 * its estimate fits under the limit, so a run stops before it would exceed, not after.
 */
export class Budget {
  private reserved = 0;
  exhausted = false;

  constructor(
    readonly limit: number | undefined,
    private spent: number,
  ) {}

  get total(): number {
    return this.spent;
  }

  /** Reserves `estimate` credits; false (and exhausted) when that would pass the limit. */
  reserve(estimate: number): boolean {
    if (this.limit !== undefined && this.spent + this.reserved + estimate > this.limit) {
      this.exhausted = true;
      return false;
    }
    this.reserved += estimate;
    return true;
  }

  /** Replaces a reservation with what the request actually cost (0 when it failed). */
  settle(estimate: number, actual: number): void {
    this.reserved -= estimate;
    this.spent += actual;
  }
}
