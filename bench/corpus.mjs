// Where the benchmark corpora live: $SCRAPELINE_CORPUS, or ../shared/corpus next to the repository.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export function corpusDir(name) {
  const root = process.env.SCRAPELINE_CORPUS ?? fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
  const dir = resolve(root, name);
  if (!existsSync(dir)) {
    console.error(`corpus folder ${dir} not found: set SCRAPELINE_CORPUS to the folder holding ${name}/`);
    process.exit(2);
  }
  return dir + "/";
}
