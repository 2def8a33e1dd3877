import type { Document } from "../core/index.js";

/**
 * Screenshots and PDFs arrive in documents as data: URLs. The store keeps their bytes once, as
 * blobs addressed by their sha256, and the stored document refers to them as
 * `blob:sha256:<hex>;type=<media type>` (read back with Store.asset).
 */
export const ASSET_REF = /^blob:sha256:([0-9a-f]{64});type=([\w.+/-]+)$/;
const DATA_URL = /^data:([\w.+/-]+);base64,/;

/** The document with every data: URL of screenshot, actions.screenshots and actions.pdfs replaced by a reference to its stored bytes. */
export function splitAssets(document: Omit<Document, "changeTracking">, put: (bytes: Buffer) => string): Omit<Document, "changeTracking"> {
  const swap = (value: string): string => {
    const match = DATA_URL.exec(value);
    if (!match) return value;
    const hash = put(Buffer.from(value.slice(match[0].length), "base64"));
    return `blob:sha256:${hash};type=${match[1]}`;
  };
  let out = document;
  if (typeof document.screenshot === "string" && DATA_URL.test(document.screenshot)) out = { ...out, screenshot: swap(document.screenshot) };
  const actions = document.actions;
  if (actions && (actions.screenshots?.some((s) => DATA_URL.test(s)) || actions.pdfs?.some((s) => DATA_URL.test(s)))) {
    out = { ...out, actions: { ...actions, ...(actions.screenshots ? { screenshots: actions.screenshots.map(swap) } : {}), ...(actions.pdfs ? { pdfs: actions.pdfs.map(swap) } : {}) } };
  }
  return out;
}

/** A reference's hash and media type, or undefined when the value is not one. */
export function parseAssetRef(value: string): { hash: string; mediaType: string } | undefined {
  const match = ASSET_REF.exec(value);
  return match ? { hash: match[1]!, mediaType: match[2]! } : undefined;
}
