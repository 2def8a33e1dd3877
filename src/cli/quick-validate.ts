// What a plain \`validate\` runs without the parser (src/cli/quick-commands.ts), in one module: the
// build bundles it with everything it loads into one file (scripts/bundle-cli.mjs), read at once.
// validatePipelines is imported by name, so that the bundle leaves out the rest of app's door.
import { validatePipelines } from "../app/check/index.js";
import { runValidate, type ValidateArgs } from "./commands/validate.js";
import type { Io } from "./output.js";

export { exitForCommandError, processIo } from "./output.js";

/** `scrapeline validate` with its arguments read. */
export function validate(io: Io, setExit: (code: number) => void, args: ValidateArgs): Promise<void> {
  return runValidate(io, setExit, args, validatePipelines);
}
