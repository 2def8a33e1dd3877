/** Roughly how many characters a token covers in page markdown (kept low so chunks fit). */
export const CHARS_PER_TOKEN = 3;

/**
 * Splits text into chunks of at most `size` characters that overlap by `overlap`, cutting at a
 * paragraph or line break where one is near, so a record split across a boundary is whole in one chunk.
 */
export function chunkText(text: string, size: number, overlap: number): string[] {
  if (text.length <= size) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const window = text.slice(start + Math.floor(size / 2), end);
      const cut = Math.max(window.lastIndexOf("\n\n"), window.lastIndexOf("\n"));
      if (cut > 0) end = start + Math.floor(size / 2) + cut + 1;
    }
    chunks.push(text.slice(start, end));
    if (end >= text.length) break;
    start = Math.max(start + 1, end - overlap);
  }
  return chunks;
}
