import type Database from "better-sqlite3";
import type { Row } from "../rows.js";

/** A warning a run gave: about a step, or about one of its pages (url). */
export interface RunWarning {
  stepId: string;
  url: string | null;
  message: string;
  at: string;
}

/** Warnings kept per run: beyond this many the rest are counted in the last one's place. */
export const MAX_RUN_WARNINGS = 1000;

export function addWarnings(db: Database.Database, runId: number, warnings: readonly RunWarning[]): void {
  const have = db.prepare("SELECT COUNT(*) FROM run_warnings WHERE run_id = ?").pluck().get(runId) as number;
  const insert = db.prepare("INSERT INTO run_warnings (run_id, step_id, url, message, at) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    const room = Math.max(0, MAX_RUN_WARNINGS - have);
    for (const w of warnings.slice(0, room)) insert.run(runId, w.stepId, w.url, w.message, w.at);
    const left = warnings.length - room;
    if (left > 0 && room > 0) {
      const last = warnings[warnings.length - 1]!;
      insert.run(runId, last.stepId, null, `${left} more warning(s) not kept`, last.at);
    }
  }).immediate();
}

export function runWarnings(db: Database.Database, runId: number): RunWarning[] {
  const rows = db.prepare("SELECT step_id, url, message, at FROM run_warnings WHERE run_id = ? ORDER BY id").all(runId) as Row[];
  return rows.map((r) => ({ stepId: r.step_id as string, url: (r.url as string | null) ?? null, message: r.message as string, at: r.at as string }));
}
