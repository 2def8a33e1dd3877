/** What kind of body a response carries, from its Content-Type and, failing that, its first bytes. */
export type ContentKind = "html" | "pdf" | "json" | "text" | "binary";

export function contentKind(contentType: string | undefined, body: Buffer): ContentKind {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (body.subarray(0, 5).toString("latin1") === "%PDF-" || type === "application/pdf") return "pdf";
  if (type === "text/html" || type === "application/xhtml+xml") return looksBinary(body) ? "binary" : "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml") || type === "application/javascript") return "text";
  if (type === "" || type === "application/octet-stream") {
    if (looksBinary(body)) return "binary";
    const head = body.subarray(0, 512).toString("utf8").trimStart().toLowerCase();
    return head.startsWith("<!doctype html") || head.startsWith("<html") || head.includes("<body") ? "html" : "text";
  }
  return "binary";
}

/** NUL bytes or many control characters in the first KiB: not text, whatever the header says. */
function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 1024);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}
