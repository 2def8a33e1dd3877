/**
 * What the command line needs before it knows which command runs, and what every command prints
 * with: cheap to load (no store, engines, YAML or schemas). Each command loads the use case it runs
 * from its own module when it runs, so `--help` and `validate` load only what they use.
 */
export { databasePath, databaseWithoutPassword, DEFAULT_DB, isDatabaseUrl, redactDatabaseUrl } from "./db-path.js";
export { didYouMean } from "../pipeline/suggest.js";
export { renderDiagnostics, summarize, type DiagnosticFormat } from "../pipeline/render.js";
export type { RunEvent } from "../runner/events.js";
