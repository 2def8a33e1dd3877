import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { StoredDocument } from "../../core/index.js";
import { sortedJson } from "../../engines/replay/index.js";
import { stableDocument } from "../recipes/index.js";

/**
 * One file pair per page, `<step>/<host>/<path>.md` and `.json` (keys sorted, without scrape ids,
 * times or cache state), so that two runs of an unchanged site export byte-identical trees.
 */
export async function writeTree(documents: Iterable<StoredDocument>, out: string): Promise<number> {
  let count = 0;
  for (const page of documents) {
    const base = join(out, segment(page.stepId), ...urlPath(page.url));
    await mkdir(dirname(base), { recursive: true });
    await writeFile(`${base}.md`, page.document.markdown ?? "");
    await writeFile(`${base}.json`, sortedJson(stableDocument(page.document)));
    count++;
  }
  return count;
}

/** The host and the path's segments of a URL as file names; a query (or an unparsable URL) adds its hash, so pages keep apart. */
function urlPath(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return ["_", `page-${hash(url)}`];
  }
  const parts = parsed.pathname.split("/").filter((p) => p !== "").map((p) => segment(safeDecode(p)));
  if (parsed.pathname.endsWith("/") || parts.length === 0) parts.push("index");
  if (parsed.search) parts[parts.length - 1] = `${parts[parts.length - 1]}__${hash(parsed.search)}`;
  return [segment(parsed.host), ...parts];
}

function segment(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return clean === "" ? "_" : clean.slice(0, 120);
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 10);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
