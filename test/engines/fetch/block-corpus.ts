import { readFileSync } from "node:fs";

const DIR = new URL("../../fixtures/blocked/", import.meta.url);

export interface CorpusPage {
  file: string;
  status: number;
  headers: Record<string, string>;
  html: string;
  /** The vendor a block page is told by; undefined for an ordinary page. */
  vendor?: string;
}

function read(index: string): CorpusPage[] {
  const entries = JSON.parse(readFileSync(new URL(index, DIR), "utf8")) as Array<Omit<CorpusPage, "html">>;
  return entries.map((entry) => ({ ...entry, html: readFileSync(new URL(entry.file, DIR), "utf8") }));
}

/** The block and challenge pages of each vendor (test/fixtures/blocked/block/). */
export const blockPages = (): CorpusPage[] => read("block-pages.json");
/** Ordinary pages that speak of captchas, Cloudflare or access denied (test/fixtures/blocked/ordinary/). */
export const ordinaryPages = (): CorpusPage[] => read("ordinary-pages.json");
