import { Unzip, UnzipInflate, unzipSync } from "fflate";
import { ScrapelineError } from "../../../core/index.js";
import { megabytes, type ParseLimits } from "./limits.js";
import { isXmlPart, XmlScan } from "./xml-scan.js";

/** The entries of a zip, by name; only those asked for are kept. */
export type ZipEntries = Map<string, Uint8Array>;

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && LOCAL_HEADER.every((b, i) => bytes[i] === b);
}

/** The names in a zip's central directory, read without inflating anything. */
export function zipNames(bytes: Uint8Array, label: string): string[] {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name);
        return false;
      },
    });
  } catch (error) {
    throw corrupt(label, error);
  }
  return names;
}

/** Compressed bytes handed to the inflater at a time: what one of them inflates to stays small (deflate expands at most ~1032×). */
const SLICE = 8 * 1024;

/**
 * Checks what a zip inflates to before anything else reads it: the sizes its directory declares
 * (before inflating), then the bytes each entry really inflates to, counted while inflating a
 * slice at a time and stopped at the limit of one part and of all of them (a directory can lie),
 * and each XML part read as it inflates (nesting depth, length of one text or value). A zip bomb
 * fails here, having held at most a few megabytes of it at a time.
 */
export function checkZip(bytes: Uint8Array, limits: ParseLimits, label: string): void {
  let declared = 0;
  let entries = 0;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries++;
        declared += file.originalSize;
        if (entries > limits.maxEntries) throw new ScrapelineError("too-large", `${label} has more than ${limits.maxEntries} entries: refused as a possible zip bomb`);
        if (file.originalSize > limits.maxPartBytes) throw partTooLarge(label, file.name, limits);
        if (declared > limits.maxInflatedBytes) throw bomb(label, limits);
        return false;
      },
    });
  } catch (error) {
    throw corrupt(label, error);
  }
  let actual = 0;
  let failure: unknown;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    if (failure) return;
    let part = 0;
    const scan = isXmlPart(file.name) ? new XmlScan(file.name, limits, label) : undefined;
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) failure = error;
      const length = data?.length ?? 0;
      actual += length;
      part += length;
      if (part > limits.maxPartBytes) failure = partTooLarge(label, file.name, limits);
      else if (actual > limits.maxInflatedBytes) failure = bomb(label, limits);
      else if (scan && data) {
        scan.push(data, final);
        failure = scan.failure;
      }
      if (failure) file.terminate();
    };
    file.start();
  };
  try {
    for (let at = 0; at < bytes.length && !failure; at += SLICE) unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
  } catch (error) {
    failure ??= error;
  }
  if (failure) throw corrupt(label, failure);
}

/**
 * The entries `wanted` picks, inflated (after checkZip: each is at most its declared size, which
 * checkZip held to the limit).
 */
export function readZip(bytes: Uint8Array, limits: ParseLimits, label: string, wanted: (name: string) => boolean = () => true): ZipEntries {
  checkZip(bytes, limits, label);
  try {
    return new Map(Object.entries(unzipSync(bytes, { filter: (file) => wanted(file.name) })));
  } catch (error) {
    throw corrupt(label, error);
  }
}

export function entryText(entries: ZipEntries, name: string): string | undefined {
  const data = entries.get(name);
  return data === undefined ? undefined : new TextDecoder("utf-8").decode(data);
}

function partTooLarge(label: string, part: string, limits: ParseLimits): ScrapelineError {
  return new ScrapelineError("too-large", `${label}: its part ${part} inflates to more than ${megabytes(limits.maxPartBytes)} (the limit of one part): refused as a possible zip bomb`);
}

function bomb(label: string, limits: ParseLimits): ScrapelineError {
  return new ScrapelineError("too-large", `${label} inflates to more than ${megabytes(limits.maxInflatedBytes)}: refused as a possible zip bomb`);
}

function corrupt(label: string, error: unknown): ScrapelineError {
  if (error instanceof ScrapelineError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ScrapelineError("bad-content", `${label} is a damaged or truncated zip archive (${detail})`);
}
