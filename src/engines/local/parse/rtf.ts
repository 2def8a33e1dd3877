import { ScrapelineError } from "../../../core/index.js";
import { clean, type Converted } from "./converted.js";
import { escapeHtml } from "./xml.js";

/** Destinations whose text is not the document's (tables of fonts, colours, styles, pictures…). */
const SKIPPED = new Set(["fonttbl", "colortbl", "stylesheet", "pict", "object", "header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf", "listtable", "listoverridetable", "generator", "themedata", "xmlnstbl", "datastore", "latentstyles", "rsidtbl", "pgdsctbl", "filetbl", "revtbl", "colorschememapping", "mmathPr", "private", "shppict", "nonshppict", "bkmkstart", "bkmkend"]);

interface State {
  bold: boolean;
  italic: boolean;
  skip: boolean;
  /** Characters to drop after a \uN (the \uc count). */
  uc: number;
  /** What this group's text is collected as. */
  sink: "text" | "title" | "author" | "fldinst" | "fldrslt";
  footnote: boolean;
}

interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  href?: string;
}

/**
 * RTF to HTML, by hand (no maintained JavaScript reader exists): paragraphs, bold and italic,
 * outline levels as headings, tables (\trowd…\cell…\row), hyperlink fields, footnotes, \uN and
 * \'hh characters in the document's ANSI code page; pictures and the font, colour and style
 * tables are skipped. Title and author come from the \info group.
 */
export function rtfToHtml(bytes: Uint8Array, label: string): Converted {
  const source = new TextDecoder("latin1").decode(bytes);
  const blocks: string[] = [];
  const notes: string[] = [];
  const info = { title: "", author: "" };
  let decoder = new TextDecoder("windows-1252");
  let runs: Run[] = [];
  let outline: number | undefined;
  let inTable = false;
  let cells: string[] = [];
  let rows: string[] = [];
  let noteRuns: Run[] | undefined;
  let field: { inst: string; href?: string } | undefined;
  let depth = 0;
  let state: State = { bold: false, italic: false, skip: false, uc: 1, sink: "text", footnote: false };
  const stack: State[] = [];
  let pendingSkip = 0;

  const target = () => (state.footnote && noteRuns ? noteRuns : runs);
  const emit = (text: string) => {
    if (state.skip || text === "") return;
    if (pendingSkip > 0) {
      const dropped = Math.min(pendingSkip, text.length);
      text = text.slice(dropped);
      pendingSkip -= dropped;
      if (text === "") return;
    }
    if (state.sink === "title") info.title += text;
    else if (state.sink === "author") info.author += text;
    else if (state.sink === "fldinst") field && (field.inst += text);
    else {
      const list = target();
      const href = state.sink === "fldrslt" ? field?.href : undefined;
      const last = list[list.length - 1];
      if (last && last.bold === state.bold && last.italic === state.italic && last.href === href) last.text += text;
      else list.push({ text, bold: state.bold, italic: state.italic, ...(href ? { href } : {}) });
    }
  };
  const render = (list: Run[]) =>
    list
      .map((r) => {
        let html = escapeHtml(r.text).replace(/\n/g, "<br>");
        if (r.text.trim() === "") return html;
        if (r.italic) html = `<em>${html}</em>`;
        if (r.bold) html = `<strong>${html}</strong>`;
        return r.href ? `<a href="${escapeHtml(r.href)}">${html}</a>` : html;
      })
      .join("");
  const endParagraph = () => {
    // A heading is bold by nature: its runs' \b is not written again (`# Title`, not `# **Title**`).
    const html = render(outline !== undefined && !inTable ? runs.map((r) => ({ ...r, bold: false })) : runs).trim();
    runs = [];
    if (inTable) {
      cells[cells.length] = `${cells.pop() ?? ""}${cells.length && html ? " " : ""}${html}`;
      return;
    }
    if (html === "") return;
    blocks.push(outline !== undefined ? `<h${Math.min(6, outline + 1)}>${html}</h${Math.min(6, outline + 1)}>` : `<p>${html}</p>`);
  };

  const pattern = /\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|([^\\{}\r\n]+)|[\r\n]+/g;
  for (let m = pattern.exec(source); m; m = pattern.exec(source)) {
    const [, word, param, hex, symbol, brace, text] = m;
    if (brace === "{") {
      stack.push(state);
      state = { ...state };
      depth++;
      continue;
    }
    if (brace === "}") {
      const closing = state;
      state = stack.pop() ?? state;
      depth--;
      if (closing.footnote && !state.footnote && noteRuns) {
        notes.push(render(noteRuns).trim());
        noteRuns = undefined;
        runs.push({ text: `[${notes.length}]`, bold: false, italic: false, href: `#fn-${notes.length}` });
      }
      if (closing.sink === "fldinst" && state.sink !== "fldinst" && field) field.href = /HYPERLINK\s+"([^"]+)"/.exec(field.inst)?.[1];
      if (depth < 0) break;
      continue;
    }
    if (text !== undefined) {
      emit(text);
      continue;
    }
    if (hex !== undefined) {
      emit(decoder.decode(Uint8Array.of(parseInt(hex, 16))));
      continue;
    }
    if (symbol !== undefined) {
      if (symbol === "*") state.skip = state.skip || !["fldinst"].includes(peekWord(source, pattern.lastIndex));
      else if (symbol === "~") emit("\u00a0");
      else if (symbol === "\\" || symbol === "{" || symbol === "}") emit(symbol);
      else if (symbol === "\n" || symbol === "\r") endParagraph();
      continue;
    }
    if (word === undefined) continue;
    const n = param === undefined ? undefined : Number(param);
    if (SKIPPED.has(word)) state.skip = true;
    else if (word === "ansicpg" && n) decoder = codePage(n) ?? decoder;
    else if (word === "info") state.sink = "text";
    else if (word === "title") state.sink = "title";
    else if (word === "author") state.sink = "author";
    else if (word === "field") field = { inst: "" };
    else if (word === "fldinst") {
      state.sink = "fldinst";
      state.skip = false;
    } else if (word === "fldrslt") state.sink = "fldrslt";
    else if (word === "footnote") {
      state.footnote = true;
      noteRuns = [];
    } else if (word === "par" || word === "sect") {
      if (state.footnote) emit(" ");
      else endParagraph();
    }
    else if (word === "pard") outline = undefined;
    else if (word === "outlinelevel") outline = n;
    else if (word === "line") emit("\n");
    else if (word === "tab") emit(" ");
    else if (word === "b") state.bold = n !== 0;
    else if (word === "i") state.italic = n !== 0;
    else if (word === "plain") state.bold = state.italic = false;
    else if (word === "uc" && n !== undefined) state.uc = n;
    else if (word === "u" && n !== undefined) {
      emit(String.fromCharCode(n < 0 ? n + 65536 : n));
      pendingSkip = state.uc;
    } else if (word === "trowd") inTable = true;
    else if (word === "intbl") inTable = true;
    else if (word === "cell") {
      endParagraph();
      cells.push("");
    } else if (word === "row") {
      cells.pop();
      rows.push(`<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`);
      cells = [];
    } else if ((word === "pard" || word === "par") && !inTable && rows.length) {
      blocks.push(`<table>${rows.join("")}</table>`);
      rows = [];
    }
    if (word === "pard" && inTable && cells.length === 0 && rows.length > 0 && !/\\intbl/.test(source.slice(pattern.lastIndex, pattern.lastIndex + 200))) {
      inTable = false;
      blocks.push(`<table>${rows.join("")}</table>`);
      rows = [];
    }
  }
  if (depth > 0 && blocks.length === 0 && runs.length === 0) throw new ScrapelineError("bad-content", `${label} is a truncated RTF file (a group is never closed)`);
  endParagraph();
  if (rows.length) blocks.push(`<table>${rows.join("")}</table>`);
  const footnotes = notes.length ? `<ol>${notes.map((n, i) => `<li id="fn-${i + 1}">${n}</li>`).join("")}</ol>` : "";
  const out: Converted = { html: blocks.join("\n") + footnotes, warnings: depth > 0 ? ["the file ends before its last group closes (truncated?): what was read is kept"] : [] };
  const title = clean(info.title);
  const author = clean(info.author);
  if (title) out.title = title;
  if (author) out.author = author;
  return out;
}

/** The control word right after a `\*`. */
function peekWord(source: string, at: number): string {
  return /^\\([a-zA-Z]+)/.exec(source.slice(at, at + 40))?.[1] ?? "";
}

function codePage(n: number): InstanceType<typeof TextDecoder> | undefined {
  try {
    return new TextDecoder(n === 65001 ? "utf-8" : `windows-${n}`);
  } catch {
    return undefined;
  }
}
