import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

const PIPELINE_FILE = /\.ya?ml$/i;
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/**
 * Expands command-line paths: files are kept as given (whatever their extension), directories
 * yield their *.yaml / *.yml files recursively, in a stable order. Missing paths are kept so the
 * loader reports them.
 */
export async function expandPipelinePaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) out.push(...(await walk(path)));
    else out.push(path);
  }
  return [...new Set(out)];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) files.push(...(await walk(path)));
    } else if (PIPELINE_FILE.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}
