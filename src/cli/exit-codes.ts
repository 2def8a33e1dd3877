/** Exit codes (DESIGN.md §7). */
export const EXIT = {
  ok: 0,
  stepFailed: 1,
  invalid: 2,
  budget: 3,
  /** The run finished, but expectations (`expect:`) broke. */
  expectation: 4,
  interrupted: 130,
} as const;
