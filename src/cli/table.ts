/** A plain-text table: the first `textColumns` columns left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}
