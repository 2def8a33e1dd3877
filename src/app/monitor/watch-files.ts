import { stat } from "node:fs/promises";
import type { Diagnostic, Pipeline } from "../../core/index.js";
import { loadPipeline } from "../../pipeline/index.js";
import { expandPipelinePaths } from "../common/index.js";

/** A pipeline file under watch: its last version that validated, and the error of a newer one. */
export interface WatchedFile {
  file: string;
  /** The last version that loaded without errors (kept while a newer one does not), and its text. */
  pipeline?: Pipeline;
  text?: string;
  /** Why the current text is not used, when it does not validate. */
  errors?: Diagnostic[];
  mtimeMs: number;
  size: number;
}

export interface FileChange {
  file: string;
  kind: "added" | "reloaded" | "invalid" | "removed" | "unscheduled";
  errors?: Diagnostic[];
}

/**
 * The pipeline files `watch` runs: the paths expanded (directories give their *.yaml files),
 * re-read when their modification time or size changes. A file that stops validating keeps its
 * last good version, and the change says why.
 */
export class WatchedFiles {
  readonly files = new Map<string, WatchedFile>();
  constructor(
    private readonly paths: readonly string[],
    private readonly env?: Readonly<Record<string, string | undefined>>,
  ) {}

  /** Looks at every file again; returns what changed. */
  async refresh(): Promise<FileChange[]> {
    const changes: FileChange[] = [];
    const current = new Set(await expandPipelinePaths(this.paths));
    for (const file of this.files.keys()) {
      if (!current.has(file)) {
        this.files.delete(file);
        changes.push({ file, kind: "removed" });
      }
    }
    for (const file of current) {
      const info = await stat(file).catch(() => undefined);
      const known = this.files.get(file);
      if (!info) {
        // A file named on the command line that was removed (or renamed): its last version stops running.
        if (known && known.mtimeMs !== -1) {
          this.files.delete(file);
          changes.push({ file, kind: "removed" });
        }
        if (!this.files.has(file)) {
          this.files.set(file, { file, mtimeMs: -1, size: -1, errors: [] });
          changes.push({ file, kind: "invalid", errors: [{ file, line: 1, column: 1, length: 1, severity: "error", code: "not-found", message: "no such file" }] });
        }
        continue;
      }
      if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) continue;
      const loaded = await loadPipeline(file, this.env ? { env: this.env } : {});
      const entry: WatchedFile = { file, mtimeMs: info.mtimeMs, size: info.size, ...(known?.pipeline ? { pipeline: known.pipeline } : {}), ...(known?.text !== undefined ? { text: known.text } : {}) };
      if (loaded.pipeline) {
        entry.pipeline = loaded.pipeline;
        if (loaded.text !== undefined) entry.text = loaded.text;
        changes.push({ file, kind: !loaded.pipeline.schedule ? "unscheduled" : known ? "reloaded" : "added" });
      } else {
        entry.errors = loaded.diagnostics.filter((d) => d.severity === "error");
        changes.push({ file, kind: "invalid", errors: entry.errors });
      }
      this.files.set(file, entry);
    }
    return changes;
  }

  /** The scheduled pipelines, by file, each with the text of its last good version (what its checks run). */
  scheduled(): Array<{ file: string; text?: string; pipeline: Pipeline & { schedule: NonNullable<Pipeline["schedule"]> } }> {
    const out: Array<{ file: string; text?: string; pipeline: Pipeline & { schedule: NonNullable<Pipeline["schedule"]> } }> = [];
    for (const { file, pipeline, text } of this.files.values()) if (pipeline?.schedule) out.push({ file, ...(text !== undefined ? { text } : {}), pipeline: pipeline as Pipeline & { schedule: NonNullable<Pipeline["schedule"]> } });
    return out;
  }
}
