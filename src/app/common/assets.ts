import type { Document, Store } from "../../core/index.js";

/** The bytes and media type behind a screenshot or PDF value: a stored reference or a data: URL. */
export function assetBytes(store: Pick<Store, "asset">, value: string | undefined): { mediaType: string; bytes: Buffer } | undefined {
  if (!value) return undefined;
  const data = /^data:([\w.+/-]+);base64,/.exec(value);
  if (data) return { mediaType: data[1]!, bytes: Buffer.from(value.slice(data[0].length), "base64") };
  return store.asset(value);
}

/**
 * A stored document with its screenshots and PDFs as data: URLs again, as the service's answers
 * carry them (serve, JSON export): self-contained, readable without the database.
 */
export function inlineAssets(document: Document, store: Pick<Store, "asset">): Document {
  const inline = (value: string): string => {
    if (value.startsWith("data:")) return value;
    const asset = store.asset(value);
    return asset ? `data:${asset.mediaType};base64,${asset.bytes.toString("base64")}` : value;
  };
  let out = document;
  if (document.screenshot) out = { ...out, screenshot: inline(document.screenshot) };
  const actions = document.actions;
  if (actions?.screenshots?.length || actions?.pdfs?.length) {
    out = { ...out, actions: { ...actions, ...(actions.screenshots ? { screenshots: actions.screenshots.map(inline) } : {}), ...(actions.pdfs ? { pdfs: actions.pdfs.map(inline) } : {}) } };
  }
  return out;
}
