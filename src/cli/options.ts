/** An error in the command line: the command does nothing and exits 2. */
export class UsageError extends Error {}

/** The --db option shared by every command that reads or writes the store; the last one given wins. */
export const DB_OPTION = {
  type: "string",
  requiresArg: true,
  describe: "database file, or a postgres:// URL (default: $SCRAPELINE_DATABASE_URL, $SCRAPELINE_DB or data/scrapeline.db)",
  coerce: (value: string | string[]) => (Array.isArray(value) ? value[value.length - 1] : value),
} as const;

/**
 * A whole-number option checked while the command line is parsed, before the command does any
 * work: `--concurrency 0`, `-3` or `abc` is a usage error. Read as a string so the message can
 * quote what was typed; the last value given wins.
 */
export function integerOption(name: string, describe: string, range: { min: number; max?: number }) {
  return {
    type: "string",
    requiresArg: true,
    describe,
    coerce: (value: string | string[]): number => {
      const text = String(Array.isArray(value) ? value[value.length - 1] : value).trim();
      const number = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(number) || number < range.min || (range.max !== undefined && number > range.max)) {
        const wanted = range.max !== undefined ? `a whole number from ${range.min} to ${range.max}` : `a whole number of at least ${range.min}`;
        throw new UsageError(`--${name} takes ${wanted}, got "${text}"`);
      }
      return number;
    },
  } as const;
}

/** --var KEY=VALUE, repeatable: sets a ${VAR} for this command; checked while parsing. */
export const VAR_OPTION = {
  type: "string",
  array: true,
  default: [] as string[],
  requiresArg: true,
  describe: "set a ${VAR} for this command: --var KEY=VALUE",
  coerce: (items: string[]) => {
    for (const item of items) {
      if (item.indexOf("=") <= 0) throw new UsageError(`--var takes KEY=VALUE, got "${item}"`);
    }
    return items;
  },
} as const;

/** The variables of --var items (already checked): the last one of a name wins. */
export function varsOf(items: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf("=");
    vars[item.slice(0, at)] = item.slice(at + 1);
  }
  return vars;
}
