// What keeping fetched pages (for run --from-run) costs a database: the same database with the
// kept pages taken out, to compare sizes. Used by bench/from-run.mjs and its test.
import { copyFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import Database from "better-sqlite3";

function blobText(db, hash) {
  const row = db.prepare("SELECT data, compression FROM blobs WHERE hash = ?").get(hash);
  return (row.compression === "br" ? brotliDecompressSync(row.data) : row.data).toString("utf8");
}

/**
 * Copies the database at `path` to `withoutPath` and removes from the copy everything only kept
 * pages use (each run's manifest and the bodies it names, the rows of unfinished runs); VACUUMs
 * both, so that the two files compare. Returns both sizes in bytes.
 */
export function sizeWithAndWithout(path, withoutPath) {
  const full = new Database(path);
  full.pragma("wal_checkpoint(TRUNCATE)");
  full.exec("VACUUM");
  full.close();
  copyFileSync(path, withoutPath);
  const db = new Database(withoutPath);
  const kept = new Set();
  const answers = db.prepare("SELECT response FROM fetched_pages").pluck().all().map((json) => JSON.parse(json));
  for (const manifest of db.prepare("SELECT fetched FROM runs WHERE fetched IS NOT NULL").pluck().all()) {
    kept.add(manifest);
    for (const [, answer] of JSON.parse(blobText(db, manifest))) answers.push(answer);
  }
  for (const answer of answers) if (answer.body) kept.add(answer.body);
  // A blob something else refers to stays (a body identical to a stored document's blob is not counted).
  const others = ["SELECT blob_hash FROM documents", "SELECT manifest FROM step_runs", "SELECT result FROM step_runs", "SELECT plan_blob FROM runs", "SELECT blob_hash FROM page_cache", "SELECT links_blob FROM page_cache", "SELECT blob_hash FROM snapshots"];
  for (const sql of others) for (const hash of db.prepare(sql).pluck().all()) kept.delete(hash);
  db.transaction(() => {
    db.exec("UPDATE runs SET fetched = NULL; DELETE FROM fetched_pages;");
    const drop = db.prepare("DELETE FROM blobs WHERE hash = ?");
    for (const hash of kept) drop.run(hash);
  })();
  db.exec("VACUUM");
  db.close();
  const size = (p) => {
    const d = new Database(p, { readonly: true });
    const bytes = d.pragma("page_count", { simple: true }) * d.pragma("page_size", { simple: true });
    d.close();
    return bytes;
  };
  return { withPages: size(path), withoutPages: size(withoutPath), keptBlobs: kept.size };
}
