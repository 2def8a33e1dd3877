// What a plain `validate` runs without the parser (src/cli/quick-commands.ts), in one module: the
// build bundles it with everything it loads into one file (scripts/bundle-cli.mjs), read at once.
export { validateCommand } from "./commands/validate.js";
export { exitForCommandError, processIo } from "./output.js";
