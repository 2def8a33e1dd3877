import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";

/**
 * A fixture's packed bodies read the plain way, to check the layout from outside the code that
 * writes it: each pack is `<sha256> <length>[ br]\n`, the stored bytes, `\n`, again and again.
 */
export function readPack(path: string): Array<{ hash: string; body: Buffer; compressed: boolean }> {
  const data = readFileSync(path);
  const out: Array<{ hash: string; body: Buffer; compressed: boolean }> = [];
  let at = 0;
  while (at < data.length) {
    const newline = data.indexOf(0x0a, at);
    const [hash, length, compression] = data.toString("latin1", at, newline).split(" ");
    const stored = data.subarray(newline + 1, newline + 1 + Number(length));
    if (data[newline + 1 + Number(length)] !== 0x0a) throw new Error(`${path}: no newline after the body ${hash}`);
    out.push({ hash: hash!, body: compression === "br" ? brotliDecompressSync(stored) : stored, compressed: compression === "br" });
    at = newline + 2 + Number(length);
  }
  return out;
}

/** Every file of a fixture as text, its bodies unpacked and uncompressed, to look for what must not be there. */
export function fixtureText(dir: string): string {
  let text = "";
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    if (name.endsWith(".pack")) for (const { body } of readPack(path)) text += body.toString("utf8");
    else text += (name.endsWith(".gz") ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString("utf8");
  }
  return text;
}

/** Every body of a fixture's shards, by hash. */
export function packedBodies(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(join(dir, "bodies")).filter((n) => n.endsWith(".pack"))) for (const { hash, body } of readPack(join(dir, "bodies", name))) out.set(hash, body);
  return out;
}

/** Puts `body` in the pack in place of the body named `hash` (its hash no longer matches: a hand-edited fixture). */
export function replaceBody(dir: string, hash: string, body: Buffer): void {
  const path = join(dir, "bodies", `${hash[0]}.pack`);
  const parts = readPack(path).map((entry) => (entry.hash === hash ? { hash, body } : entry));
  writeFileSync(path, Buffer.concat(parts.flatMap((p) => [Buffer.from(`${p.hash} ${p.body.length}\n`), p.body, Buffer.from("\n")])));
}

/** Turns a fixture into the layout of format 1 (a file per body, gzipped over 4 KB), as a fixture recorded by an earlier version. */
export function toFormat1(dir: string): void {
  const bodies = packedBodies(dir);
  rmSync(join(dir, "bodies"), { recursive: true });
  mkdirSync(join(dir, "bodies"));
  const names = new Map<string, string>();
  for (const [hash, body] of bodies) {
    const name = `${createHash("sha256").update(body).digest("hex")}${body.length > 4096 ? ".gz" : ".bin"}`;
    writeFileSync(join(dir, "bodies", name), body.length > 4096 ? gzipSync(body) : body);
    names.set(hash, name);
  }
  const text = readFileSync(join(dir, "index.json"), "utf8").replace(/"([0-9a-f]{64})"/g, (whole, hash: string) => (names.has(hash) ? `"${names.get(hash)}"` : whole));
  const index = JSON.parse(text);
  index.format = 1;
  writeFileSync(join(dir, "index.json"), JSON.stringify(index));
  if (existsSync(join(dir, "journal.jsonl"))) throw new Error("a finished fixture was expected");
}
