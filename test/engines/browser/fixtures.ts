import type { ScrapeOptions } from "../../../src/core/index.js";
import { loadPipelineText } from "../../../src/pipeline/index.js";

/** Scrape options exactly as a pipeline would give them (defaults applied). */
export function scrapeOptions(extra: Record<string, unknown> = {}): ScrapeOptions {
  const yaml = `version: 1\nname: t\nsteps:\n  - id: s\n    scrape: ${JSON.stringify({ url: "https://example.com/", ...extra })}\n`;
  const result = loadPipelineText("t.yaml", yaml);
  const step = result.pipeline?.steps[0];
  if (!step || step.kind !== "scrape") throw new Error(JSON.stringify(result.diagnostics));
  return step.body;
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(dataUrl: string): { width: number; height: number } {
  const prefix = "data:image/png;base64,";
  if (!dataUrl.startsWith(prefix)) throw new Error(`not a PNG data URL: ${dataUrl.slice(0, 40)}`);
  const bytes = Buffer.from(dataUrl.slice(prefix.length), "base64");
  if (bytes.subarray(1, 4).toString("latin1") !== "PNG" || bytes.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("no PNG header");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The page size of a PDF in points, from its first MediaBox. */
export function pdfMediaBox(dataUrl: string): { width: number; height: number } {
  const prefix = "data:application/pdf;base64,";
  if (!dataUrl.startsWith(prefix)) throw new Error(`not a PDF data URL: ${dataUrl.slice(0, 40)}`);
  const text = Buffer.from(dataUrl.slice(prefix.length), "base64").toString("latin1");
  const match = /\/MediaBox\s*\[\s*([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)\s*\]/.exec(text);
  if (!match) throw new Error("no MediaBox in the PDF");
  const [x0, y0, x1, y1] = match.slice(1, 5).map(Number) as [number, number, number, number];
  return { width: x1 - x0, height: y1 - y0 };
}
