import { fileURLToPath } from "node:url";

/**
 * Programs the CLI starts as child processes, found from this folder. Paths here are written from
 * `dist/cli/`, the one folder that holds both this module and the CLI's bundle, so they hold in both.
 */

/** The server program (src/server/main.ts): cli and server are separate frontends over app (DESIGN.md §2). */
export const SERVER_PROGRAM = fileURLToPath(new URL("../server/main.js", import.meta.url));

/** The UI program (src/ui/main.ts): the CLI reaches app only, never another frontend (DESIGN.md §2). */
export const UI_PROGRAM = fileURLToPath(new URL("../ui/main.js", import.meta.url));
