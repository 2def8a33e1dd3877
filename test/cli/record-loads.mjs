// Passed to the built CLI with --import: when the process exits, writes every module it loaded to
// the file named by RECORD_LOADS_TO, one URL or path a line (ES modules as they are resolved,
// CommonJS ones from require's cache).
import { appendFileSync } from "node:fs";
import module, { createRequire } from "node:module";

const out = process.env.RECORD_LOADS_TO;
const seen = [];
const hooks = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(out)}, resolved.url + "\\n");
  return resolved;
}`;
if (module.registerHooks) {
  module.registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      seen.push(resolved.url);
      return resolved;
    },
  });
} else module.register(`data:text/javascript,${encodeURIComponent(hooks)}`);
process.on("exit", () => appendFileSync(out, [...seen, ...Object.keys(createRequire(import.meta.url).cache)].join("\n") + "\n"));
