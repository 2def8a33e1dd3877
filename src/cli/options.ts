/** The --db option shared by every command that reads or writes the store; the last one given wins. */
export const DB_OPTION = {
  type: "string",
  requiresArg: true,
  describe: "database file (default: $SCRAPELINE_DB or data/scrapeline.db)",
  coerce: (value: string | string[]) => (Array.isArray(value) ? value[value.length - 1] : value),
} as const;
