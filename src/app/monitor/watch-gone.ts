import { existsSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { MonitorTables } from "../../store/index.js";

/**
 * Marks gone the pipeline files' monitors `watch` no longer schedules: their file left the watched
 * paths, was removed or renamed, or its pipeline was renamed or lost its schedule. A monitor is
 * only this watch's to mark when it ran here before, or its file is missing, or lies under the
 * watched paths; a file that does not validate keeps its monitor (its last good version runs).
 * Returns the names marked.
 */
export function markGoneMonitors(
  tables: MonitorTables,
  state: { scheduledKeys: ReadonlySet<string>; previousKeys: ReadonlySet<string>; watchedPaths: readonly string[]; invalidFiles: ReadonlySet<string> },
): Array<{ name: string; file: string | null }> {
  const roots = state.watchedPaths.map((p) => resolve(p));
  const under = (file: string) => roots.some((root) => file === root || file.startsWith(root + sep));
  const invalid = new Set([...state.invalidFiles].map((f) => resolve(f)));
  const marked: Array<{ name: string; file: string | null }> = [];
  for (const monitor of tables.list({ source: "file" })) {
    if (monitor.goneAt || state.scheduledKeys.has(monitor.key)) continue;
    const file = monitor.file ? resolve(monitor.file) : undefined;
    if (file && invalid.has(file)) continue;
    const ours = state.previousKeys.has(monitor.key) || !file || !existsSync(file) || under(file);
    if (!ours) continue;
    tables.markGone(monitor.id);
    marked.push({ name: monitor.name, file: monitor.file });
  }
  return marked;
}
