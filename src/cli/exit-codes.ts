/** Exit codes (DESIGN.md §7). */
export const EXIT = {
  ok: 0,
  stepFailed: 1,
  invalid: 2,
  budget: 3,
  interrupted: 130,
} as const;
