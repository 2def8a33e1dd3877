import { readFileSync } from "node:fs";
import type { ConversionSettings } from "../local/index.js";
import { sha256, sortedJson } from "./fixture-files.js";

/** The version converting: a document recorded by another version is made again from its page. */
const VERSION = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

const settingsHashes = new WeakMap<ConversionSettings["options"], Map<boolean, string>>();

/** The hash of a page's conversion settings, made once per options object (a crawl's pages share theirs). */
function settingsHash(settings: ConversionSettings): string {
  let byLinks = settingsHashes.get(settings.options);
  if (!byLinks) settingsHashes.set(settings.options, (byLinks = new Map()));
  let hash = byLinks.get(settings.pageLinks);
  if (hash === undefined) byLinks.set(settings.pageLinks, (hash = sha256(sortedJson(settings))));
  return hash;
}

/** The key of a recorded document: the page's request and body, the settings, and the version that converted it. */
export function documentKey(requestKey: string, body: string, settings: ConversionSettings): string {
  return sha256(`${requestKey}\n${body}\n${settingsHash(settings)}\n${VERSION}`);
}
