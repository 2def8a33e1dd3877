import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether the openssl command is there to make test certificates (tests that need one skip without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A fresh self-signed certificate for `commonName` (and a DNS subject alternative name when given), as PEM. */
export function selfSignedCert(commonName: string, altName?: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "scrapeline-tls-"));
  try {
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    const extra = altName ? ["-addext", `subjectAltName=DNS:${altName}`] : [];
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${commonName}`, ...extra], { stdio: "ignore" });
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
