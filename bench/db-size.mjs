import { statSync } from "node:fs";

/** Bytes of a SQLite database on disk: the file and its write-ahead log. */
export function dbSize(path) {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(path + suffix).size;
    } catch {}
  }
  return total;
}
