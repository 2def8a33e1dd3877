// Reads the examples out of documentation: fenced code blocks and inline code of a markdown file,
// and the "Examples:" section of a command's --help output.

export interface CodeBlock {
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ lang: open[1]!, text: body.join("\n") + "\n", line: start + 1 });
  }
  return blocks;
}

/** Inline code spans outside fenced blocks (a span may wrap onto the next line), with their line. */
export function inlineCode(markdown: string): { code: string; line: number }[] {
  const spans: { code: string; line: number }[] = [];
  const fenced = markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, (block) => block.replace(/[^\n]/g, " "));
  for (const match of fenced.matchAll(/`([^`]+)`/g)) {
    spans.push({ code: match[1]!.replace(/\s*\n\s*/g, " "), line: fenced.slice(0, match.index).split("\n").length });
  }
  return spans;
}

/**
 * The command lines of a shell block or an inline span: comments dropped, continuation lines
 * joined, `&&` chains split, and output redirections and pipes cut off.
 */
export function commandLines(text: string): string[] {
  const joined = text.replace(/\\\n\s*/g, " ");
  const out: string[] = [];
  for (const raw of joined.split("\n")) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    for (const part of line.split(/\s&&\s/)) out.push(part.split(/\s[|>]\s?/)[0]!.trim());
  }
  return out;
}

function stripComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) { if (c === quote) quote = ""; }
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Words of a command line, with shell quotes removed. */
export function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/**
 * The arguments after `scrapeline` (or `npx scrapeline`) of a command line, after any `VAR=value`
 * assignments; undefined for other commands.
 */
export function scraplineArgs(line: string): string[] | undefined {
  const all = words(line);
  let at = 0;
  while (at < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[at]!)) at++;
  if (all[at] === "npx") at++;
  return all[at] === "scrapeline" ? all.slice(at + 1) : undefined;
}

/**
 * The command column of the "Examples:" section of a --help output. A command too long for its
 * column wraps onto the next line at the same indentation; a wrapped description is indented further.
 */
export function helpExamples(help: string): string[] {
  const section = /^Examples:\n((?: {2}.*\n?)+)/m.exec(help);
  if (!section) return [];
  const out: string[] = [];
  for (const line of section[1]!.split("\n")) {
    if (!/^ {2}\S/.test(line)) continue;
    const command = line.trim().split(/\s{2,}/)[0]!;
    if (command.startsWith("scrapeline ") || out.length === 0) out.push(command);
    else out[out.length - 1] += ` ${command}`;
  }
  return out;
}

/** The subcommands a --help output lists under "Commands:" (the last word of each, placeholders aside). */
export function helpCommands(help: string): string[] {
  const section = /^Commands:\n((?: {2}.*\n?)+)/m.exec(help);
  if (!section) return [];
  return section[1]!
    .split("\n")
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/\s{2,}/)[0]!.split(" ").filter((w) => !/^[<[]/.test(w)).at(-1)!);
}
