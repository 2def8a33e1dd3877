import type { DiffStretch, VersionDiff } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";

/** Unchanged lines kept around a change; longer unchanged stretches are folded (a <details>, open without script). */
export const CONTEXT_LINES = 3;

export type DiffLayout = "side" | "inline";

interface Row {
  kind: "same" | "del" | "add" | "pair";
  oldNo?: number;
  newNo?: number;
  oldText?: string;
  newText?: string;
}

/** Stretches cut into shown pieces and folded ones: a fold holds the unchanged lines far from any change. */
function pieces(stretches: DiffStretch[]): Array<{ fold: boolean; rows: Row[] }> {
  const out: Array<{ fold: boolean; rows: Row[] }> = [];
  const push = (fold: boolean, rows: Row[]) => {
    if (rows.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.fold === fold) last.rows.push(...rows);
    else out.push({ fold, rows });
  };
  stretches.forEach((s, i) => {
    if (s.op === "same") {
      const rows = s.lines.map((text, k) => ({ kind: "same" as const, oldNo: s.oldStart + k, newNo: s.newStart + k, oldText: text, newText: text }));
      const head = i === 0 ? 0 : CONTEXT_LINES;
      const tail = i === stretches.length - 1 ? 0 : CONTEXT_LINES;
      if (rows.length <= head + tail + 1) return push(false, rows);
      push(false, rows.slice(0, head));
      push(true, rows.slice(head, rows.length - tail));
      push(false, rows.slice(rows.length - tail));
      return;
    }
    if (s.op === "del" && stretches[i + 1]?.op === "add") return; // paired with the addition that follows
    const deleted = s.op === "add" && stretches[i - 1]?.op === "del" ? stretches[i - 1]! : undefined;
    const rows: Row[] = [];
    if (s.op === "del") for (const [k, text] of s.lines.entries()) rows.push({ kind: "del", oldNo: s.oldStart + k, oldText: text });
    else {
      const n = Math.max(s.lines.length, deleted?.lines.length ?? 0);
      for (let k = 0; k < n; k++) {
        const oldText = deleted?.lines[k];
        const newText = s.lines[k];
        rows.push({
          kind: oldText !== undefined && newText !== undefined ? "pair" : oldText !== undefined ? "del" : "add",
          ...(oldText !== undefined ? { oldNo: deleted!.oldStart + k, oldText } : {}),
          ...(newText !== undefined ? { newNo: s.newStart + k, newText } : {}),
        });
      }
    }
    push(false, rows);
  });
  return out;
}

function sideRow(row: Row): Html {
  const cell = (no: number | undefined, text: string | undefined, side: "del" | "add") => {
    const cls = text === undefined ? "empty" : row.kind === "same" ? "" : side;
    return html`<td class="ln">${no ?? ""}</td><td class="text ${cls}">${text ?? ""}</td>`;
  };
  return html`<tr class="${row.kind}">${cell(row.oldNo, row.oldText, "del")}${cell(row.newNo, row.newText, "add")}</tr>`;
}

function inlineRows(row: Row): Html {
  if (row.kind === "same") return html`<tr class="same"><td class="ln">${row.oldNo}</td><td class="ln">${row.newNo}</td><td class="mark"> </td><td class="text">${row.oldText}</td></tr>`;
  const del = row.oldText !== undefined ? html`<tr class="del"><td class="ln">${row.oldNo}</td><td class="ln"></td><td class="mark">-</td><td class="text">${row.oldText}</td></tr>` : "";
  const add = row.newText !== undefined ? html`<tr class="add"><td class="ln"></td><td class="ln">${row.newNo}</td><td class="mark">+</td><td class="text">${row.newText}</td></tr>` : "";
  return html`${del}${add}`;
}

/** Inline rows: within each stretch of changed rows, its deletions before its additions, as a unified diff has them. */
function inlineBlock(rows: Row[]): Html {
  const out: Html[] = [];
  let dels: Row[] = [];
  let adds: Row[] = [];
  const flush = () => {
    for (const r of dels) out.push(inlineRows({ kind: "del", oldNo: r.oldNo!, oldText: r.oldText! }));
    for (const r of adds) out.push(inlineRows({ kind: "add", newNo: r.newNo!, newText: r.newText! }));
    dels = [];
    adds = [];
  };
  for (const row of rows) {
    if (row.kind === "same") {
      flush();
      out.push(inlineRows(row));
      continue;
    }
    if (row.oldText !== undefined) dels.push(row);
    if (row.newText !== undefined) adds.push(row);
  }
  flush();
  return html`${out}`;
}

/** A diff as a table: side by side (previous | current) or inline, with added and removed lines coloured and unchanged stretches folded. */
export function diffTable(diff: VersionDiff, layout: DiffLayout): Html {
  if (diff.tooLarge) return html`<p class="muted">These versions are too large to compare on a page.</p>`;
  if (diff.added === 0 && diff.removed === 0) return html`<p class="muted">The two versions have the same text.</p>`;
  const header = layout === "side" ? html`<thead><tr><th class="ln"></th><th>Version ${diff.from.version}</th><th class="ln"></th><th>Version ${diff.to.version}</th></tr></thead>` : "";
  const body = pieces(diff.stretches).map(({ fold, rows }) => {
    const inner = layout === "side" ? html`${rows.map(sideRow)}` : inlineBlock(rows);
    if (!fold) return inner;
    return html`<tr class="fold-row"><td colspan="4"><details class="fold"><summary>${rows.length} unchanged line(s)</summary><table>${inner}</table></details></td></tr>`;
  });
  return html`<div class="diff diff-${layout}" data-added="${diff.added}" data-removed="${diff.removed}"><table>${header}<tbody>${body}</tbody></table></div>`;
}

/** json mode's field differences: field, previous value, current value. */
export function jsonChangesTable(changes: unknown): Html {
  if (typeof changes !== "object" || changes === null) return html``;
  const entries = Object.entries(changes as Record<string, { previous?: unknown; current?: unknown }>);
  if (entries.length === 0) return html`<p class="muted">No field changed.</p>`;
  const show = (value: unknown) => (value === undefined ? html`<span class="muted">(absent)</span>` : html`<code>${JSON.stringify(value, null, 1)}</code>`);
  return html`<div class="scroll"><table class="json-changes"><thead><tr><th>Field</th><th>Previous</th><th>Current</th></tr></thead><tbody>${entries.map(
    ([field, { previous, current }]) => html`<tr><td><code>${field}</code></td><td class="text del">${show(previous)}</td><td class="text add">${show(current)}</td></tr>`,
  )}</tbody></table></div>`;
}
