/** A warning a run gave: about a step, or about one of its pages (url). */
export interface RunWarning {
  stepId: string;
  url: string | null;
  message: string;
  at: string;
}

/** Warnings kept per run: beyond this many the rest are counted in the last one's place. */
export const MAX_RUN_WARNINGS = 1000;
