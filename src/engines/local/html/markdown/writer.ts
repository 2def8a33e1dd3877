import { decodeText, isSpace } from "../dom.js";
import { escapeText } from "./escape.js";

const COLLAPSIBLE = /[\t\n\r\f]| {2}/;
const SPACES = /[ \t\n\r\f]+/g;

interface Mark {
  open: string;
  close: string;
  /** Written already (content followed it). */
  written: boolean;
  /** Emphasis is closed at a block boundary and reopened after it; links are not. */
  emphasis: boolean;
  link: boolean;
}

export interface WriterOptions {
  /** Everything on one line (table cells): block breaks and `<br>` become spaces, pipes are escaped. */
  singleLine?: boolean;
}

/**
 * Streams markdown out of a document walk. Whitespace collapses as a browser would: runs become
 * one space, and space at block edges disappears. Block breaks are requested, not written, and
 * resolve when the next content arrives, so empty elements leave no blank lines; inline delimiters
 * (`**`, `[`) also wait for content, so empty emphasis and empty links vanish.
 */
export class MarkdownWriter {
  private readonly out: string[] = [];
  // The state below is set by restart(), the one place a fresh writer's is written.
  private prefix!: string;
  /** The prefix of the line the last content went on: blank lines keep what it shares with the next. */
  private contentPrefix!: string;
  private marker!: { outer: string; text: string } | null;
  private breaks!: number;
  private hardBreaks!: number;
  private space!: boolean;
  private started!: boolean;
  private freshItem!: boolean;
  private lineStart!: boolean;
  private last!: number;
  private readonly marks: Mark[] = [];
  private linkDepth!: number;
  private inline!: number;
  private readonly table: boolean;

  constructor(options: WriterOptions = {}) {
    this.table = options.singleLine === true;
    this.restart();
  }

  /** Empties the writer: it then writes as a new one made with the same options would (a table's cells share one). */
  restart(): void {
    this.out.length = 0;
    this.prefix = "";
    this.contentPrefix = "";
    this.marker = null;
    this.breaks = 0;
    this.hardBreaks = 0;
    this.space = false;
    this.started = false;
    this.freshItem = false;
    this.lineStart = true;
    this.last = 32;
    this.marks.length = 0;
    this.linkDepth = 0;
    this.inline = this.table ? 1 : 0;
  }

  get inLink(): boolean {
    return this.linkDepth > 0;
  }

  get singleLine(): boolean {
    return this.inline > 0;
  }

  /** Asks for `lines` line breaks (1: new line, 2: blank line) before the next content. */
  block(lines: number): void {
    if (this.inline > 0) {
      if (this.started) this.space = true;
      return;
    }
    if (!this.started || this.freshItem) return;
    if (lines > this.breaks) this.breaks = lines;
    this.space = false;
  }

  /** A `<br>`: a hard line break (two in a row make a paragraph break). */
  br(): void {
    if (this.inline > 0) {
      if (this.started) this.space = true;
      return;
    }
    if (this.started && !this.freshItem) this.hardBreaks++;
    this.space = false;
  }

  /** Raw text of the document: decoded, whitespace collapsed, markdown characters escaped. */
  text(raw: string): void {
    const text = decodeText(raw);
    const n = text.length;
    let start = 0;
    while (start < n && isSpace(text.charCodeAt(start))) start++;
    if (start === n) {
      if (n > 0) this.space = true;
      return;
    }
    if (start > 0) this.space = true;
    let end = n;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    let run = start === 0 && end === n ? text : text.slice(start, end);
    if (COLLAPSIBLE.test(run)) run = run.replace(SPACES, " ");
    this.flush();
    const escaped = escapeText(run, this.lineStart, this.last, this.table);
    this.out.push(escaped);
    this.last = escaped.charCodeAt(escaped.length - 1);
    this.lineStart = false;
    if (end < n) this.space = true;
  }

  /** Markdown syntax written as is (after any pending break or space). */
  literal(markup: string): void {
    if (markup === "") return;
    this.flush();
    this.out.push(markup);
    this.last = markup.charCodeAt(markup.length - 1);
    this.lineStart = false;
  }

  openEmphasis(delimiter: string): void {
    this.marks.push({ open: delimiter, close: delimiter, written: false, emphasis: true, link: false });
  }

  /** Opens a heading, a link or another construct whose opening markup waits for content. */
  openMark(open: string, link = false): void {
    this.marks.push({ open, close: "", written: false, emphasis: false, link });
  }

  /** Closes the innermost mark; returns whether anything was written inside it. */
  closeMark(close?: string): boolean {
    const mark = this.marks.pop();
    if (mark === undefined || !mark.written) return false;
    const text = close ?? mark.close;
    this.out.push(text);
    if (text !== "") this.last = text.charCodeAt(text.length - 1);
    return true;
  }

  openLink(): void {
    this.linkDepth++;
    this.openMark("[", true);
  }

  closeLink(destination: string): void {
    this.linkDepth--;
    this.closeMark(destination);
  }

  /** Inside headings everything stays on one line. */
  beginInline(): void {
    this.inline++;
  }

  endInline(): void {
    this.inline--;
  }

  /** Indents what follows (blockquote `> `, list continuation); returns the previous prefix for restore(). */
  indent(extra: string): string {
    const previous = this.prefix;
    this.prefix += extra;
    return previous;
  }

  restore(prefix: string): void {
    this.prefix = prefix;
  }

  /** Starts a list item: the next line begins with the marker, later lines are indented to match. */
  startItem(marker: string, first: boolean): string {
    if (this.inline > 0) {
      this.block(1);
      return this.prefix;
    }
    if (this.started) this.breaks = first ? Math.max(this.breaks, 1) : 1;
    this.marker = { outer: this.prefix, text: marker };
    this.freshItem = true;
    return this.indent(" ".repeat(marker.length));
  }

  endItem(previous: string): void {
    this.marker = null;
    this.freshItem = false;
    this.prefix = previous;
  }

  /** Lines written verbatim, each behind the current prefix (code blocks, tables). */
  lines(lines: string[]): void {
    this.flush();
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) this.out.push("\n" + (lines[i] === "" ? this.prefix.trimEnd() : this.prefix));
      this.out.push(lines[i]!);
    }
    this.last = 10;
    this.lineStart = false;
  }

  /**
   * The markdown: no trailing whitespace, one final newline (empty when nothing was written). The
   * whitespace is trimmed off the last pieces and the newline joined with them, so the page's
   * markdown is made once, as one flat string (`joined + "\n"` was copied again when the page was
   * handed to the store). Ends the writer.
   */
  finish(): string {
    const out = this.out;
    let end = out.length;
    while (end > 0) {
      const last = out[end - 1]!.trimEnd();
      if (last !== "") {
        out[end - 1] = last;
        break;
      }
      end--;
    }
    if (end === 0) return "";
    out.length = end;
    out.push("\n");
    return out.join("");
  }

  /** For single-line output (table cells): the text without a final newline. */
  finishInline(): string {
    return this.out.join("").trim();
  }

  private flush(): void {
    const marks = this.marks;
    if (!this.started) {
      this.started = true;
      this.writeLinePrefix();
    } else if (this.breaks > 0 || this.hardBreaks > 0) {
      // Inside link text already written, breaks become escaped newlines (the link must stay one piece).
      let inLinkText = false;
      for (const mark of marks) if (mark.link && mark.written) inLinkText = true;
      for (let m = marks.length - 1; m >= 0 && !inLinkText; m--) {
        const mark = marks[m]!;
        if (mark.emphasis && mark.written) {
          this.out.push(mark.close);
          mark.written = false;
        }
      }
      if (inLinkText) {
        this.out.push("\\\n" + this.prefix);
        this.lineStart = false;
      } else if (this.breaks === 0 && this.hardBreaks === 1) {
        this.out.push("\\\n" + this.prefix);
        this.lineStart = false;
      } else {
        const blank = this.breaks >= 2 || this.hardBreaks >= 2;
        this.out.push(blank ? "\n" + sharedPrefix(this.contentPrefix, this.marker?.outer ?? this.prefix).trimEnd() + "\n" : "\n");
        this.writeLinePrefix();
      }
    } else if (this.space) {
      this.out.push(" ");
      this.lineStart = false;
    }
    this.breaks = 0;
    this.hardBreaks = 0;
    this.space = false;
    this.freshItem = false;
    this.contentPrefix = this.prefix;
    for (const mark of marks) {
      if (!mark.written) {
        mark.written = true;
        if (mark.open !== "") {
          this.out.push(mark.open);
          this.lineStart = false;
        }
      }
    }
  }

  private writeLinePrefix(): void {
    if (this.marker !== null) {
      this.out.push(this.marker.outer + this.marker.text);
      this.marker = null;
    } else {
      this.out.push(this.prefix);
    }
    this.lineStart = true;
  }
}

function sharedPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return a.slice(0, i);
}
