import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { ScrapelineError } from "../../../core/index.js";
import { linesOf, type Line, type TextRun } from "./lines.js";
import { renderMarkdown } from "./markdown.js";
import { pdfMetadata, type PdfMetadata, type XmpReader } from "./metadata.js";
import { documentOptions, loadPdfJs } from "./pdfjs.js";

/** A PDF's text as Markdown, with what it says about itself. */
export interface PdfText {
  markdown: string;
  /** Pages parsed (and billed): the page count, capped by maxPages. */
  numPages: number;
  /** Pages in the file. */
  totalPages: number;
  metadata: PdfMetadata;
}

/** How much of a PDF to parse, and when to stop. */
export interface PdfOptions {
  /** Parse at most this many pages, from the first (a whole number from 1). */
  maxPages?: number;
  /** Aborting stops parsing at the next page boundary. */
  signal?: AbortSignal;
}

/**
 * Extracts a PDF's text as Markdown. A file that is not a PDF, is damaged beyond recovery or
 * needs a password fails with "bad-content"; an aborted signal fails with "cancelled" (or the
 * signal's reason when that is a ScrapelineError).
 */
export async function pdfToMarkdown(body: Uint8Array, options: PdfOptions = {}): Promise<PdfText> {
  const { maxPages, signal } = options;
  if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1)) {
    throw new ScrapelineError("invalid-input", `maxPages must be a whole number from 1, got ${maxPages}`);
  }
  if (body.byteLength === 0) throw new ScrapelineError("bad-content", "cannot read PDF: the file is empty");
  throwIfAborted(signal);
  const pdfjs = await loadPdfJs();
  throwIfAborted(signal);
  const task = pdfjs.getDocument(documentOptions(pdfjs, body));
  const onAbort = () => void task.destroy().catch(() => undefined);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const doc = await task.promise.catch((error: unknown) => {
      throwIfAborted(signal);
      throw openError(error);
    });
    const totalPages = doc.numPages;
    const numPages = Math.min(totalPages, maxPages ?? totalPages);
    const pages: Line[][] = [];
    let firstFailure: unknown;
    for (let number = 1; number <= numPages; number++) {
      await yieldToEventLoop();
      throwIfAborted(signal);
      try {
        pages.push(await pageLines(doc, number));
      } catch (error) {
        throwIfAborted(signal);
        firstFailure ??= error;
      }
    }
    if (numPages > 0 && pages.length === 0) {
      throw new ScrapelineError("bad-content", `cannot read PDF: no page could be read (${describe(firstFailure)})`, { cause: firstFailure });
    }
    const metadata = await doc.getMetadata().then(
      ({ info, metadata: xmp }) => pdfMetadata(info as Record<string, unknown>, xmp as XmpReader | null, (s) => pdfjs.PDFDateString.toDateObject(s)),
      () => ({}),
    );
    throwIfAborted(signal);
    return { markdown: renderMarkdown(pages), numPages, totalPages, metadata };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await task.destroy().catch(() => undefined);
  }
}

async function pageLines(doc: PDFDocumentProxy, number: number): Promise<Line[]> {
  const page = await doc.getPage(number);
  try {
    const content = await page.getTextContent();
    const runs: TextRun[] = [];
    for (const item of content.items) {
      if (!("str" in item)) continue;
      const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
      const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height;
      runs.push({ text: item.str, x, y, width: item.width, size, endsLine: item.hasEOL });
    }
    return linesOf(runs);
  } finally {
    page.cleanup();
  }
}

/** The ScrapelineError for a document pdf.js could not open. */
function openError(error: unknown): ScrapelineError {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") {
    return new ScrapelineError("bad-content", "cannot read PDF: it is encrypted and needs a password", { cause: error });
  }
  if (name === "InvalidPDFException") {
    return new ScrapelineError("bad-content", `cannot read PDF: not a valid PDF file (${describe(error)})`, { cause: error });
  }
  return new ScrapelineError("bad-content", `cannot read PDF: ${describe(error)}`, { cause: error });
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().replace(/\.$/, "") || "unknown error";
}

/**
 * In Node pdf.js runs its worker in this thread and talks to it through microtasks, so a long
 * document would starve timers, I/O and abort signals; parsing steps aside once per page.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted !== true) return;
  if (signal.reason instanceof ScrapelineError) throw signal.reason;
  throw new ScrapelineError("cancelled", "PDF parsing was cancelled", { cause: signal.reason });
}
