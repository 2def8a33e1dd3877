import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ScrapelineError } from "../../core/index.js";
import { emptyIndex, FIXTURE_FORMAT, READABLE_FORMATS, type FixtureIndex } from "./fixture-files.js";

/** The journal of a recording under way: one line per entry, in index.json's stead until the recording ends. */
export const JOURNAL_FILE = "journal.jsonl";

/** One line of the journal: an entry of a section, or an answer added to the service's list for its key. */
type JournalLine = { at: "requests" | "browser" | "modelCalls" | "searches" | "documents" | "service"; key: string; value: unknown };

/**
 * Writes a recording's index as the run goes: each entry is a line appended to journal.jsonl once
 * its body is on disk, so a run killed mid-way leaves a fixture of what it had recorded. The
 * journal's first line names the format and the model. When the recording ends, index.json is
 * written and the journal removed.
 */
export class IndexJournal {
  private fd: number | undefined;

  constructor(private readonly dir: string, head: Pick<FixtureIndex, "model">) {
    mkdirSync(dir, { recursive: true });
    this.fd = openSync(join(dir, JOURNAL_FILE), "w");
    writeSync(this.fd, `${JSON.stringify({ format: FIXTURE_FORMAT, ...(head.model ? { model: head.model } : {}) })}\n`);
  }

  append(line: JournalLine): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  /** Ends the journal once index.json holds everything it did. */
  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(join(this.dir, JOURNAL_FILE), { force: true });
  }
}

/** Applies one journal line to an index (the service's answers are added in order). */
export function applyLine(index: FixtureIndex, line: JournalLine): void {
  if (line.at === "service") (index.service[line.key] ??= []).push(line.value as FixtureIndex["service"][string][number]);
  else (index[line.at] as Record<string, unknown>)[line.key] = line.value;
}

/** A fixture's index: the journal of a recording that never finished when there is one (its torn last line left out), else index.json. */
export function readIndex(dir: string): FixtureIndex {
  const journal = join(dir, JOURNAL_FILE);
  if (existsSync(journal)) return readJournal(journal);
  const path = join(dir, "index.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new ScrapelineError("invalid-input", `no fixture at ${dir}: ${path} cannot be read (record one with scrapeline run FILE --record ${dir})`, { cause });
  }
  let index: FixtureIndex;
  try {
    index = JSON.parse(text) as FixtureIndex;
  } catch (cause) {
    throw new ScrapelineError("invalid-input", `${path}: not JSON (${(cause as Error).message})`, { cause });
  }
  if (!READABLE_FORMATS.includes(index?.format) || typeof index.requests !== "object") throw new ScrapelineError("invalid-input", `${path}: ${unreadable(index?.format)}`);
  return { ...emptyIndex(), ...index };
}

function readJournal(path: string): FixtureIndex {
  const lines = readFileSync(path, "utf8").split("\n");
  const index = emptyIndex();
  lines.forEach((text, n) => {
    if (text === "") return;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (cause) {
      // A run killed mid-write leaves its last line torn; any other is damage.
      if (n === lines.length - 1) return;
      throw new ScrapelineError("invalid-input", `${path}:${n + 1}:1: not JSON (${(cause as Error).message})`, { cause });
    }
    if (n === 0) {
      const head = line as { format?: unknown; model?: FixtureIndex["model"] };
      if (!READABLE_FORMATS.includes(head.format as number)) throw new ScrapelineError("invalid-input", `${path}:1:1: ${unreadable(head.format)}`);
      if (head.model) index.model = head.model;
      return;
    }
    applyLine(index, line as JournalLine);
  });
  return index;
}

/** Why a fixture's format cannot be read, and what to do. */
function unreadable(format: unknown): string {
  const what = typeof format === "number" ? `a fixture of format ${format}` : "not a fixture";
  return `${what}; this version replays formats ${READABLE_FORMATS.join(" and ")}: record it again with scrapeline run FILE --record DIR`;
}

export type { JournalLine };
